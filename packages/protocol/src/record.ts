/**
 * The game record (docs/game-records.md): declared once in the engine, whose `replay` command
 * reads it, and served here as the answer of `GET /api/worlds/:id/record` and the format the web
 * client opens from a file (`parseRecord`, whose refusals are typed codes with words). Its JSON
 * Schema is published in docs/protocol.md.
 */
export {
  type GameRecord,
  gameRecordSchema,
  parseRecord,
  RECORD_ERROR_CODES,
  RECORD_VERSION,
  type RecordErrorCode,
  type RecordResult,
} from '@bke/engine/schemas';
