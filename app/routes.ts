import { type RouteConfig, index, route } from "@react-router/dev/routes";

// SPEC.md §2 route table, plus the trade board of DESIGN.md §5.
export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("profile", "routes/profile.tsx"),
  route("chat/:roomId", "routes/chat.tsx"),
  route("cards", "routes/cards.tsx"),
  route("cards/:cardId", "routes/card.tsx"),
  route("api/cards", "routes/api.cards.ts"),
  route("api/cards/search", "routes/api.cards.search.ts"),
  route("api/cards/:packId/:cardId", "routes/api.cards.$packId.$cardId.ts"),
  route("api/admin/cards/import", "routes/api.admin.cards.import.ts"),
  route("articles", "routes/articles.tsx"),
  route("articles/:id", "routes/article.tsx"),
  route("deck-recipes", "routes/deck-recipes.tsx"),
  route("deck-recipes/:slug", "routes/deck-recipe.tsx"),
  route("trades", "routes/trades.tsx"),
  route("trades/new", "routes/trades.new.tsx"),
  route("trades/:id", "routes/trade.tsx"),
  route("admin", "routes/admin.tsx"),
  route("admin/deck-recipes/new", "routes/admin.deck-recipes.new.tsx"),
  route("admin/deck-recipes/edit/:id", "routes/admin.deck-recipes.edit.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("terms", "routes/terms.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
