/**
 * Bring a setting into view and focus it (a validation problem's link): its folded section opens,
 * and the page's scroll-padding (ui/train/sticky-room.ts) keeps it clear of the sticky actions bar.
 * False when no knob of that setting is in the page.
 */
export function showKnob(key: string): boolean {
  const knob = [...document.querySelectorAll<HTMLElement>('[data-knob]')].find((el) => el.dataset.knob === key);
  const control = knob?.querySelector<HTMLElement>('input, select, textarea');
  if (!knob || !control) return false;
  const section = knob.closest('details');
  if (section) section.open = true;
  control.focus({ preventScroll: true });
  // The whole knob (label, control, help) where it fits; scroll-padding leaves the bar's height free.
  knob.scrollIntoView({ block: 'nearest' });
  return true;
}
