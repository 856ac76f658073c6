/**
 * 14.1 Neutral garrisons: their defence strength, and whether one comes back after losing a combat.
 * Pillage markers acting as neutral garrisons (9.5) use the same rules.
 */

/** What combat needs to know about the city (if any) in a neutral garrison's area. */
export interface NeutralCity {
  readonly tax: number;
  /** The map's explicit strength for this city (Rome, Antioch, Damascus, Alexandria 3; Byzantium 4). */
  readonly neutralStrength?: number;
}

/** The minimum strength of any neutral garrison (14.1, 2.3). */
const NEUTRAL_MIN_STRENGTH = 2;

/**
 * 14.1, AMBIG-5: a neutral garrison defends with the tax value of its city, at least 2 and at most
 * the cap (3 by default); the map's explicit strength (Byzantium 4) overrides both. In an area
 * without a city it defends with 2.
 */
export function neutralGarrisonStrength(city: NeutralCity | null, cap = 3): number {
  if (!city) return NEUTRAL_MIN_STRENGTH;
  if (city.neutralStrength !== undefined) return city.neutralStrength;
  return Math.max(NEUTRAL_MIN_STRENGTH, Math.min(city.tax, cap));
}

/** The facts deciding whether a beaten neutral garrison reappears (14.1, 9.5, AMBIG-29). */
export interface RegenerationFacts {
  /** The garrison stood in a city area (non-city garrisons never come back). */
  readonly cityArea: boolean;
  /** At least one attacking unit advanced or pursued into the area after the combat. */
  readonly attackerEntered: boolean;
}

/**
 * 14.1: a neutral garrison eliminated in combat in a city area reappears at once unless an
 * attacking unit moves into the area; D-9. A pillage marker acting as a garrison (9.5) follows the
 * same rule, since the marker itself never leaves the city.
 */
export function neutralGarrisonReappears(facts: RegenerationFacts): boolean {
  return facts.cityArea && !facts.attackerEntered;
}
