/**
 * Moving between a grid's inputs by keyboard. Arrow keys go to the nearest enabled input
 * on screen in that direction, whatever the layout (the daily grid is a calendar on a
 * desktop and a list of days on a tablet); Enter goes to the next input in reading order
 * where the grid numbers its inputs (data-order), else to the one below.
 */

export type Direction = 'up' | 'down' | 'left' | 'right';

function inputsOf(from: HTMLInputElement): HTMLInputElement[] {
  const grid = from.closest('[data-grid]');
  return grid ? [...grid.querySelectorAll<HTMLInputElement>('input:not(:disabled)')] : [];
}

function focus(next: HTMLInputElement | undefined) {
  next?.focus();
  next?.select();
}

/** The nearest input in a direction: first by distance along it, then by how far off the line it lies. */
export function moveSpatially(from: HTMLInputElement, direction: Direction) {
  const here = from.getBoundingClientRect();
  const centre = { x: here.left + here.width / 2, y: here.top + here.height / 2 };
  let best: { input: HTMLInputElement; score: number } | undefined;
  for (const input of inputsOf(from)) {
    if (input === from) continue;
    const box = input.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const along = { up: centre.y - y, down: y - centre.y, left: centre.x - x, right: x - centre.x }[direction];
    const across = direction === 'up' || direction === 'down' ? Math.abs(x - centre.x) : Math.abs(y - centre.y);
    // Only inputs clearly in that direction, and not further off the line than along it.
    if (along < 4 || across > along * 2 + here.height) continue;
    const score = along + across * 3;
    if (!best || score < best.score) best = { input, score };
  }
  focus(best?.input);
}

/** Enter: the next input in reading order (data-order), or the one below when the grid has no order. */
export function moveToNext(from: HTMLInputElement, backwards = false) {
  const order = Number(from.dataset.order);
  if (!Number.isFinite(order) || from.dataset.order === undefined) return moveSpatially(from, backwards ? 'up' : 'down');
  const step = backwards ? -1 : 1;
  const inputs = inputsOf(from);
  const next = inputs
    .filter((input) => input.dataset.order !== undefined && Math.sign(Number(input.dataset.order) - order) === step)
    .sort((a, b) => step * (Number(a.dataset.order) - Number(b.dataset.order)))[0];
  focus(next);
}
