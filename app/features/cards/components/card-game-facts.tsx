import { Fragment } from "react";
import { elementOf, isExCard, isTrainerCard, STAGE_MESSAGE, trainerMessage, TYPE_MESSAGE, type CardFace, type Element } from "#app/lib/card-face.ts";
import { useT } from "#app/lib/i18n.tsx";
import { cardsMessages } from "#app/features/cards/messages.ts";

/** One attack as the card prints it: energy cost and damage (names and effects exist only in English upstream). */
export type CardAttackFace = { cost: string[]; damage: number; suffix?: "+" | "x" };

// Static class names so the stylesheet build finds them (app.css's type colours).
const ENERGY_CLASS: Record<Element, string> = {
  grass: "bg-type-grass text-white",
  fire: "bg-type-fire text-white",
  water: "bg-type-water text-white",
  lightning: "bg-type-lightning text-slate-900",
  psychic: "bg-type-psychic text-white",
  fighting: "bg-type-fighting text-white",
  darkness: "bg-type-darkness text-white",
  metal: "bg-type-metal text-white",
  dragon: "bg-type-dragon text-white",
  colorless: "bg-type-colorless text-slate-900",
};

/** One energy as a coloured disc with the type's first character (草, 炎, …), named for screen readers. */
export function EnergyIcon({ type }: { type: string }) {
  const t = useT(cardsMessages);
  const element = elementOf({ element: type });
  if (element === "unknown") return null;
  const name = t(TYPE_MESSAGE[element]);
  return (
    <span role="img" aria-label={name} title={name} data-energy={element} className={`inline-flex size-5 shrink-0 items-center justify-center rounded-full text-[0.65rem] font-bold leading-none ${ENERGY_CLASS[element]}`}>
      {name.charAt(0)}
    </span>
  );
}

/** What a card's facts are read from: its face and, when a source describes it, weakness, retreat and attacks. */
export type CardFactsFace = Pick<CardFace, "name" | "nameEn" | "element" | "hp" | "stage" | "cardType"> & {
  weakness: string | null;
  retreatCost: number | null;
  attacks: CardAttackFace[] | null;
};

/**
 * Rows of a card's facts as the game prints them (inside a <dl>): for a Pokémon its type, HP,
 * stage, weakness, ex rule, retreat and attacks; for a trainer its kind. The card page, the card
 * picker's details and the deck page draw this one list; only what the data says is shown.
 */
export function CardFactRows({ card }: { card: CardFactsFace }) {
  const t = useT(cardsMessages);
  if (isTrainerCard(card)) {
    return (
      <>
        <dt className="font-medium text-slate-600">{t("cardKindLabel")}</dt>
        <dd>{t(trainerMessage(card.cardType))}</dd>
      </>
    );
  }
  const element = elementOf(card);
  const weakness = card.weakness ? elementOf({ element: card.weakness }) : "unknown";
  const stage = card.stage ? STAGE_MESSAGE[card.stage] : undefined;
  const facts: [string, string, string][] = [];
  if (element !== "unknown") facts.push(["type", t("typeLabel"), t(TYPE_MESSAGE[element])]);
  if (card.hp !== null) facts.push(["hp", t("hpLabel"), String(card.hp)]);
  if (stage) facts.push(["stage", t("stageLabel"), t(stage)]);
  if (weakness !== "unknown") facts.push(["weakness", t("weaknessLabel"), t(TYPE_MESSAGE[weakness])]);
  return (
    <>
      {facts.map(([key, label, value]) => (
        <Fragment key={key}>
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd data-fact={key}>{value}</dd>
        </Fragment>
      ))}
      <CardGameFactRows face={card} />
    </>
  );
}

/** A card's facts as a list of their own (the picker's details, a deck page's cards). */
export function CardFactList({ card, className = "" }: { card: CardFactsFace; className?: string }) {
  return (
    <dl className={`grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1 text-sm ${className}`} data-card-facts>
      <CardFactRows card={card} />
    </dl>
  );
}

/** ポケモンex / メガシンカポケモンex, from the name as printed (メガ… ex). */
export function exRule(face: { name: string; nameEn: string }): "ruleEx" | "ruleMegaEx" | null {
  if (!isExCard(face)) return null;
  return /^Mega /.test(face.nameEn) || face.name.startsWith("メガ") ? "ruleMegaEx" : "ruleEx";
}

/**
 * Rows of a card's facts list (inside a <dl>): the ex rule, retreat as energy icons and each
 * attack's cost and damage. Only what the data says: a card without facts gets no row.
 */
export function CardGameFactRows({ face }: { face: { name: string; nameEn: string; retreatCost: number | null; attacks: CardAttackFace[] | null } }) {
  const t = useT(cardsMessages);
  const rule = exRule(face);
  return (
    <>
      {rule ? (
        <>
          <dt className="font-medium text-slate-600">{t("ruleLabel")}</dt>
          <dd data-ex-rule>
            <span className="rounded bg-ex px-2 py-0.5 text-xs font-bold text-white">{t(rule)}</span>
          </dd>
        </>
      ) : null}
      {face.retreatCost !== null ? (
        <>
          <dt className="font-medium text-slate-600">{t("retreatLabel")}</dt>
          <dd data-retreat={face.retreatCost} className="flex items-center gap-1">
            {face.retreatCost === 0 ? (
              t("retreatNone")
            ) : (
              <span role="img" aria-label={t("retreatEnergies", { count: face.retreatCost })} className="flex gap-1">
                {Array.from({ length: face.retreatCost }, (_, i) => (
                  <EnergyIcon key={i} type="colorless" />
                ))}
              </span>
            )}
          </dd>
        </>
      ) : null}
      {face.attacks?.length ? (
        <>
          <dt className="font-medium text-slate-600">{t("attacksLabel")}</dt>
          <dd>
            <ol className="space-y-1" data-attacks>
              {face.attacks.map((attack, i) => (
                <Fragment key={i}>
                  <AttackRow attack={attack} n={i + 1} />
                </Fragment>
              ))}
            </ol>
          </dd>
        </>
      ) : null}
    </>
  );
}

function AttackRow({ attack, n }: { attack: CardAttackFace; n: number }) {
  const t = useT(cardsMessages);
  const damage =
    attack.damage === 0
      ? t("attackNoDamage")
      : t(attack.suffix === "+" ? "attackDamagePlus" : attack.suffix === "x" ? "attackDamageTimes" : "attackDamage", { damage: attack.damage });
  const cost = attack.cost.length ? attack.cost.map((c) => t(TYPE_MESSAGE[elementOf({ element: c }) as Element] ?? "typeColorless")).join("・") : t("attackCostFree");
  return (
    <li className="flex items-center gap-3" data-attack aria-label={t("attackLabel", { n, cost, damage })}>
      <span className="flex min-w-16 gap-0.5" aria-hidden="true">
        {attack.cost.length ? attack.cost.map((c, i) => <EnergyIcon key={i} type={c} />) : <span className="text-slate-500">—</span>}
      </span>
      <span className="font-bold tabular-nums" aria-hidden="true">
        {attack.damage === 0 ? "—" : `${attack.damage}${attack.suffix === "x" ? "×" : attack.suffix ?? ""}`}
      </span>
    </li>
  );
}
