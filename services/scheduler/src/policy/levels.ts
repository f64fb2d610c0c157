import { LEVELS } from '@crawler/core';

/** Lowest priority of levels 0, 1 and 2; anything lower is level 3. */
export const LEVEL_FLOORS = [0.5, 0.3, 0.15] as const;

/** The priority level (0 highest) of a priority in [0, 1]. */
export function levelOf(priority: number): number {
  const level = LEVEL_FLOORS.findIndex((floor) => priority >= floor);
  return level === -1 ? LEVELS - 1 : level;
}
