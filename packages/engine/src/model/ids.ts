/**
 * Branded ids. They are plain strings on the wire and in the state; the brand only stops an
 * area id from being passed where a unit id is expected.
 */
import { z } from 'zod';

export type AreaId = string & { readonly __brand: 'AreaId' };
export type UnitId = string & { readonly __brand: 'UnitId' };
export type PlayerId = string & { readonly __brand: 'PlayerId' };

export const asAreaId = (s: string): AreaId => s as AreaId;
export const asUnitId = (s: string): UnitId => s as UnitId;
export const asPlayerId = (s: string): PlayerId => s as PlayerId;

/**
 * Wire schemas: plain bounded strings (no transform, so parsing stays cheap on the hot path);
 * the parsed order is typed with the branded ids by `parseOrder`.
 */
export const areaIdSchema = z.string().min(1).max(80);
export const unitIdSchema = z.string().min(1).max(40);
export const playerIdSchema = z.string().min(1).max(80);
