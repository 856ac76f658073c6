/**
 * Branded ids. They are plain strings on the wire and in the state; the brand only stops an
 * area id from being passed where a unit id is expected. Each id is declared once, as a schema:
 * plain bounded strings (no transform, so parsing stays cheap), branded by type only.
 */
import { z } from 'zod';

export const areaIdSchema = z.string().min(1).max(80).brand<'AreaId'>();
export const unitIdSchema = z.string().min(1).max(40).brand<'UnitId'>();
export const playerIdSchema = z.string().min(1).max(80).brand<'PlayerId'>();

export type AreaId = z.infer<typeof areaIdSchema>;
export type UnitId = z.infer<typeof unitIdSchema>;
export type PlayerId = z.infer<typeof playerIdSchema>;

/** An area id from a plain string (the map's ids, tests). */
export const asAreaId = (s: string): AreaId => s as AreaId;
/** A unit id from a plain string. */
export const asUnitId = (s: string): UnitId => s as UnitId;
/** A player id from a plain string. */
export const asPlayerId = (s: string): PlayerId => s as PlayerId;
