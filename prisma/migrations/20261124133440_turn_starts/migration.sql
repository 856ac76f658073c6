-- A snapshot's game turn in a column of its own, so that thinning and the choice of a replay's
-- starting snapshot read an integer instead of each state's JSON. Filled from the state by a
-- trigger on every insert (the server's, a rollback's, a test's alike); existing rows backfilled.
ALTER TABLE "world_snapshots" ADD COLUMN "turn" INTEGER;
UPDATE "world_snapshots" SET "turn" = ("state"->>'turn')::int;
ALTER TABLE "world_snapshots" ALTER COLUMN "turn" SET NOT NULL;

CREATE FUNCTION world_snapshots_turn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.turn := (NEW.state->>'turn')::int;
  RETURN NEW;
END $$;
CREATE TRIGGER world_snapshots_turn BEFORE INSERT OR UPDATE OF state ON "world_snapshots"
  FOR EACH ROW EXECUTE FUNCTION world_snapshots_turn();

-- The orders that began a game turn: the moderators' list of turns reads these few rows instead
-- of every order's events, which grew with the world's age.
CREATE TABLE "world_turn_starts" (
    "world_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,

    CONSTRAINT "world_turn_starts_pkey" PRIMARY KEY ("world_id","seq")
);

ALTER TABLE "world_turn_starts" ADD CONSTRAINT "world_turn_starts_world_id_seq_fkey" FOREIGN KEY ("world_id", "seq") REFERENCES "world_orders"("world_id", "seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- The turn an order's state is at when its events began one or more turns (the last one begun).
-- A rollback row restores a turn's start rather than beginning one, and is left out.
CREATE FUNCTION world_orders_turn_start() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE began int;
BEGIN
  IF NEW.kind <> 'rollback' AND jsonb_typeof(NEW.events) = 'array'
     AND NEW.events @> '[{"type":"turnStarted"}]' THEN
    SELECT max((e->>'turn')::int) INTO began
      FROM jsonb_array_elements(NEW.events) e
     WHERE e->>'type' = 'turnStarted' AND jsonb_typeof(e->'turn') = 'number';
    IF began IS NOT NULL THEN
      INSERT INTO world_turn_starts (world_id, seq, turn) VALUES (NEW.world_id, NEW.seq, began);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER world_orders_turn_start AFTER INSERT ON "world_orders"
  FOR EACH ROW EXECUTE FUNCTION world_orders_turn_start();

INSERT INTO "world_turn_starts" (world_id, seq, turn)
SELECT o.world_id, o.seq, max((e->>'turn')::int)
  FROM "world_orders" o CROSS JOIN LATERAL jsonb_array_elements(
         CASE WHEN jsonb_typeof(o.events) = 'array' THEN o.events ELSE '[]'::jsonb END) e
 WHERE o.kind <> 'rollback' AND e->>'type' = 'turnStarted' AND jsonb_typeof(e->'turn') = 'number'
 GROUP BY o.world_id, o.seq;
