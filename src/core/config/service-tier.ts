/**
 * Provider service tiers (issue #22): `service_tier` on ordinary chat-completion calls. Flex
 * (OpenAI, Gemini, Groq) is billed at batch rates — about half — in exchange for slower answers
 * and occasional "resource unavailable" refusals; priority costs more and answers faster. No
 * tier set means the parameter is not sent at all (many OpenAI-compatible servers refuse it).
 */
import { presetPrice, type Price } from './pricing';

export const SERVICE_TIERS = ['auto', 'default', 'flex', 'priority'] as const;
export type ServiceTier = (typeof SERVICE_TIERS)[number];

/** OpenAI's advice for flex: calls queue, so allow 15 minutes instead of the usual timeout. */
export const FLEX_TIMEOUT_MS = 15 * 60_000;

/**
 * What the tier does to a list price: flex is billed at batch rates (half). Priority rates vary
 * by model and are not guessed: enter them on Connect.
 */
export function tierPriceFactor(tier: ServiceTier | undefined): number {
  return tier === 'flex' ? 0.5 : 1;
}

export function tieredPrice(price: Price | undefined, tier: ServiceTier | undefined): Price | undefined {
  const f = tierPriceFactor(tier);
  if (!price || f === 1) return price;
  const cached = price.cachedInput !== undefined ? { cachedInput: price.cachedInput * f } : {};
  return { input: price.input * f, output: price.output * f, ...cached };
}

/**
 * The prices a run is charged at (issue #9 item 4), one rule for the page and the runner: what
 * the person gave for a role, else the list price of the role's model at its service tier (flex:
 * half), so the cost so far and the budget cap count real dollars; a role stays unpriced when neither.
 */
export function chargedPrices<P extends { target?: Price; optimizer?: Price }>(
  given: P,
  endpoints: Record<'target' | 'optimizer', { model: string; serviceTier?: ServiceTier }>,
): P & { target?: Price; optimizer?: Price } {
  const out: P & { target?: Price; optimizer?: Price } = { ...given };
  for (const role of ['target', 'optimizer'] as const) {
    const price = out[role] ?? tieredPrice(presetPrice(endpoints[role].model), endpoints[role].serviceTier);
    if (price) out[role] = price;
    else delete out[role];
  }
  return out;
}

/** What a person should know of a tier, for the Connect screen. */
export const TIER_HINTS: Record<ServiceTier, string> = {
  auto: 'The project’s default tier, chosen by the provider.',
  default: 'Standard processing at list prices.',
  flex: 'About half price, slower, sometimes “resource unavailable” (asked again patiently); 15-minute timeout.',
  priority: 'Faster and dearer; enter the priority prices below.',
};
