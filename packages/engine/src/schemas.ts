/**
 * `@bke/engine/schemas`: the schemas of what crosses the wire into the engine — every order, the
 * economic plan inside one, a world's options, the ids and the players' colours — for the protocol
 * to build on, without the rules themselves, and the game record's format. Only model/ files,
 * which load nothing above them.
 */
export { COLOURS, type Colour, colourSchema } from './model/colours.ts';
export * from './model/game-record.ts';
export { areaIdSchema, playerIdSchema, unitIdSchema } from './model/ids.ts';
export { optionsSchema } from './model/options.ts';
export { economicPlanSchema, ORDER_SCHEMAS, orderSchema, parseOrder } from './model/orders.ts';
