import { data } from "react-router";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = () => pageMeta("ページが見つかりません");

// Unknown paths answer 404 through the root error boundary.
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
