import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { openTestDatabase } from "./test-database";
import { runsOn } from "../support/by-design";

describe.skipIf(!process.env.TEST_DATABASE_URL)("the PostgreSQL pool", runsOn("PostgreSQL"), () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  it("survives the server ending its idle connections, and opens new ones", async () => {
    await database.db.execute(sql`select 1`);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const { rows } = (await database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    const ended = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [rows[0]!.name]);
    await admin.end();
    expect(ended.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [again] = ((await database.db.execute(sql`select 2 as n`)) as unknown as { rows: { n: number }[] }).rows;
    expect(again!.n).toBe(2);
  });
});
