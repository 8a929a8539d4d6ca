import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/types";

const INJECTED = "injected failure:";

/**
 * Makes the transaction that queues an order's e-mail of one kind fail once, there, as a crash
 * midway would (a lost connection, the database restarting): a trigger refuses the first such
 * insert into outbox_emails and lets the next through. It counts with a sequence, which a
 * rollback does not undo. A real database, no mock: the rollback is PostgreSQL's own. Returns
 * what removes the trigger.
 */
export async function failFirstEmail(db: Db, kind: string, orderNumber: string): Promise<() => Promise<void>> {
  const name = `fail_first_email_${randomBytes(4).toString("hex")}`;
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  await db.execute(sql.raw(`create sequence ${name}`));
  await db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin
        if nextval(${literal(name)}) = 1 then raise exception '${INJECTED} %', ${literal(name)}; end if;
        return new;
      end $$`),
  );
  await db.execute(
    sql.raw(`create trigger ${name} before insert on outbox_emails for each row
      when (new.kind = ${literal(kind)} and position(${literal(orderNumber)} in new.subject) > 0) execute function ${name}()`),
  );
  return async () => {
    await db.execute(sql.raw(`drop trigger ${name} on outbox_emails`));
    await db.execute(sql.raw(`drop function ${name}()`));
    await db.execute(sql.raw(`drop sequence ${name}`));
  };
}

/** Whether an error is the failure injected here (the driver's error, or the query error wrapping it). */
export function isInjectedFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.message.startsWith(INJECTED) || isInjectedFailure(error.cause);
}
