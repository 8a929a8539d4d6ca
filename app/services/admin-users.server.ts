import { type SQL, and, asc, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { orders, users } from "~/db/schema";
import type { Db } from "~/db/types";
import { endSessionsAndSecondFactor } from "./users.server";
import type { OrderStatus } from "~/domain/catalog-values";
import { PAID_ORDER_STATUSES, type Role, USERS_PAGE_SIZE, type UserListQuery, containsPattern, decideRoleChange } from "~/domain/admin-users";

/** What the admin sees of an account, with the figures of its paid orders. */
export type UserSummary = {
  id: string;
  name: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  /** ISO date-times. */
  createdAt: string;
  erasedAt: string | null;
  orderCount: number;
  lastOrderAt: string | null;
  spentCents: number;
};

export type UserListPage = { rows: UserSummary[]; total: number; page: number; pageCount: number };

/**
 * The figures of one account's paid orders (paid or shipped), as a LATERAL subquery joined to
 * each row of `userId`'s table: the list computes them for its page of users in the same
 * statement (orders_user_idx), never with a query per user.
 */
function paidFigures(db: Db, userId: AnyPgColumn) {
  return db
    .select({
      orderCount: sql<number>`count(*)::int`.mapWith(Number).as("order_count"),
      lastOrderAt: sql<Date | null>`max(${orders.createdAt})`.mapWith(orders.createdAt).as("last_order_at"),
      spentCents: sql<number>`coalesce(sum(${orders.totalCents}), 0)::bigint`.mapWith(Number).as("spent_cents"),
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, [...PAID_ORDER_STATUSES])))
    .as("figures");
}

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  emailVerified: users.emailVerified,
  createdAt: users.createdAt,
  erasedAt: users.erasedAt,
};

type UserRow = { [K in keyof typeof userColumns]: (typeof users.$inferSelect)[K] } & { orderCount: number; lastOrderAt: Date | null; spentCents: number };

function toSummary(row: UserRow): UserSummary {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    erasedAt: row.erasedAt?.toISOString() ?? null,
    lastOrderAt: row.lastOrderAt?.toISOString() ?? null,
  };
}

function searchFilter(q: string): SQL | undefined {
  if (!q) return undefined;
  const pattern = containsPattern(q);
  return or(ilike(users.name, pattern), ilike(users.email, pattern));
}

/**
 * The users page (SPEC.md "Users page"): accounts whose name or e-mail contains `q` (any case),
 * by name, 20 a page, each with its paid orders' count, last date and total — in one
 * statement: the page of users (and the total, a window count) first, then the figures of
 * those users only. A page past the end shows the last one.
 */
export async function listUsers(db: Db, query: UserListQuery): Promise<UserListPage> {
  const where = searchFilter(query.q);
  let found = await readUserPage(db, where, query.page);
  if (found.rows.length === 0 && query.page > 1) {
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users).where(where);
    const last = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
    found = last < query.page ? await readUserPage(db, where, last) : { rows: [], total, page: query.page };
  }
  return { ...found, pageCount: Math.ceil(found.total / USERS_PAGE_SIZE) };
}

async function readUserPage(db: Db, where: SQL | undefined, page: number): Promise<Omit<UserListPage, "pageCount">> {
  const pageOfUsers = db.$with("page_of_users").as(
    db
      .select({
        ...userColumns,
        sortName: sql<string>`lower(${users.name})`.as("sort_name"),
        total: sql<number>`count(*) over ()`.mapWith(Number).as("total"),
      })
      .from(users)
      .where(where)
      .orderBy(sql`lower(${users.name})`, asc(users.id))
      .limit(USERS_PAGE_SIZE)
      .offset((page - 1) * USERS_PAGE_SIZE),
  );
  const figures = paidFigures(db, pageOfUsers.id);
  const rows = await db
    .with(pageOfUsers)
    .select({
      id: pageOfUsers.id,
      name: pageOfUsers.name,
      email: pageOfUsers.email,
      role: pageOfUsers.role,
      emailVerified: pageOfUsers.emailVerified,
      createdAt: pageOfUsers.createdAt,
      erasedAt: pageOfUsers.erasedAt,
      total: pageOfUsers.total,
      orderCount: figures.orderCount,
      lastOrderAt: figures.lastOrderAt,
      spentCents: figures.spentCents,
    })
    .from(pageOfUsers)
    .leftJoinLateral(figures, sql`true`)
    .orderBy(pageOfUsers.sortName, asc(pageOfUsers.id));
  return { rows: rows.map(({ total: _total, ...row }) => toSummary(row)), total: rows[0]?.total ?? 0, page };
}

export type UserOrderLine = { number: string; status: OrderStatus; totalCents: number; createdAt: string };

/** One account with its figures and every order it placed, newest first (the user's page). */
export async function getUserDetails(db: Db, id: string): Promise<{ user: UserSummary; orders: UserOrderLine[] } | null> {
  if (!id || id.length > 100) return null;
  const figures = paidFigures(db, users.id);
  const [row] = await db
    .select({ ...userColumns, orderCount: figures.orderCount, lastOrderAt: figures.lastOrderAt, spentCents: figures.spentCents })
    .from(users)
    .leftJoinLateral(figures, sql`true`)
    .where(eq(users.id, id));
  if (!row) return null;
  const placed = await db
    .select({ number: orders.number, status: orders.status, totalCents: orders.totalCents, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.userId, id))
    .orderBy(desc(orders.createdAt), desc(orders.seq));
  return { user: toSummary(row), orders: placed.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })) };
}

export type RoleChange = { outcome: "changed" | "unchanged"; role: Role } | { outcome: "missing" } | { outcome: "refused"; message: string };

/**
 * Gives `targetId` the role `role`. The admins' rows and the target's are locked first (in id
 * order, one statement), so two admins demoting each other at once cannot leave the shop with
 * none: the second one waits, then counts one admin and is refused. Only a confirmed address
 * is promoted (decideRoleChange).
 */
export async function changeRole(db: Db, input: { actorId: string; targetId: string; role: Role }): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    const locked = await tx
      .select({ id: users.id, role: users.role, erasedAt: users.erasedAt, emailVerified: users.emailVerified })
      .from(users)
      .where(or(eq(users.role, "admin"), eq(users.id, input.targetId)))
      .orderBy(asc(users.id))
      .for("update");
    const target = locked.find((row) => row.id === input.targetId);
    if (!target) return { outcome: "missing" };
    const decision = decideRoleChange({
      actorId: input.actorId,
      target: { id: target.id, role: target.role, erased: target.erasedAt !== null, emailVerified: target.emailVerified },
      role: input.role,
      adminCount: locked.filter((row) => row.role === "admin").length,
    });
    if (decision.kind === "refuse") return { outcome: "refused", message: decision.message };
    if (decision.kind === "unchanged") return { outcome: "unchanged", role: input.role };
    await tx
      .update(users)
      .set({ role: input.role, updatedAt: new Date() })
      .where(eq(users.id, target.id));
    await endSessionsAndSecondFactor(tx as unknown as Db, target.id);
    return { outcome: "changed", role: input.role };
  });
}
