import { ArrowLeft, Download, ShieldCheck, ShieldOff, UserX } from "lucide-react";
import { type ReactNode, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { UserBadges } from "~/components/admin/user-badges";
import { Alert } from "~/components/ui/alert";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { PAID_ORDER_STATUSES, type UserAction, ROLE_LABELS, formatDay, userActionSchema } from "~/domain/admin-users";
import { ORDER_STATUS_LABELS, type OrderStatus } from "~/domain/catalog-values";
import { formatEuros } from "~/domain/money";
import type { AppContext } from "~/lib/context";
import { changeRole, getUserDetails } from "~/services/admin-users.server";
import { eraseUser } from "~/services/gdpr.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/user";
import { readForm } from "~/lib/request-input.server";
import { formatParisDate } from "~/domain/paris-time";
import { goodwillCreditSchema } from "~/domain/store-credit-forms";
import { StoreCreditHistoryView } from "~/components/account/store-credit-history";
import { FormField } from "~/components/ui/form-field";
import { creditableAccount, grantStoreCredit } from "~/services/store-credit-grants.server";
import { storeCreditHistoryOfMailbox } from "~/services/store-credit-orders.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const details = await getUserDetails(context.db, params.id);
  // Answered here rather than thrown: an error boundary inside the admin layout would run the
  // layout's loader again, turning a refused POST into a redirect.
  if (!details) return data({ found: false as const }, { status: 404 });
  const storeCredit = await storeCreditHistoryOfMailbox(context.db, details.user.email);
  return { found: true as const, ...details, storeCredit, self: details.user.id === viewer.id };
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [{ title: loaded?.found ? `${loaded.user.name} · Utilisateurs` : "Utilisateur introuvable" }];

const answer = (status: number, ok: boolean, title: string, description: string) => data<ActionToast>({ ok, toast: { title, description } }, { status });

/** Promote, demote, erase: each checked again on the server, whatever the page showed. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const form = Object.fromEntries(await readForm(request));
  if (form.intent === "goodwill") return goodwillAction(context, admin.id, params.id, form);
  const parsed = userActionSchema.safeParse(form);
  if (!parsed.success) return answer(400, false, "Erreur", parsed.error.issues[0]?.message ?? "Requête invalide.");
  const intent = parsed.data.intent;
  try {
    return intent === "erase" ? await eraseAction(context, admin.id, params.id) : await roleAction(context, admin.id, params.id, intent);
  } catch (error) {
    context.logger.error({ err: error, userId: params.id, intent }, "admin: user action failed");
    return answer(500, false, "Erreur", "Une erreur est survenue. Réessayez dans un instant.");
  }
}

/** « Geste commercial »: a credit to the customer's store credit, with the validity set in /admin/settings, announced by e-mail. */
async function goodwillAction(context: AppContext, adminId: string, targetId: string, form: Record<string, unknown>) {
  const parsed = goodwillCreditSchema.safeParse(form);
  if (!parsed.success) return answer(400, false, "Avoir non crédité", parsed.error.issues[0]?.message ?? "Formulaire illisible.");
  const account = await creditableAccount(context.db, targetId);
  if (!account) return answer(404, false, "Erreur", "Ce client n'existe pas ou ses données ont été effacées.");
  const shop = { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl };
  const granted = await grantStoreCredit(context.db, { ...account, amountCents: parsed.data.amount, kind: "goodwill", reason: parsed.data.reason, author: `seller:${adminId}` }, shop);
  context.logger.info({ userId: targetId, adminId, amountCents: parsed.data.amount }, "store credit: goodwill credit");
  return answer(200, true, "Avoir crédité", `${formatEuros(parsed.data.amount)} crédités : nouveau solde ${formatEuros(granted.balanceCents)}.`);
}

async function roleAction(context: AppContext, adminId: string, targetId: string, intent: Exclude<UserAction, "erase">) {
  const result = await changeRole(context.db, { actorId: adminId, targetId, role: intent === "promote" ? "admin" : "user" });
  switch (result.outcome) {
    case "missing":
      return answer(404, false, "Erreur", "Cet utilisateur n'existe pas.");
    case "refused":
      return answer(409, false, "Action refusée", result.message);
    case "unchanged":
      return answer(200, true, "Aucun changement", result.role === "admin" ? "Ce compte est déjà administrateur." : "Ce compte n'est déjà plus administrateur.");
    case "changed":
      context.logger.info({ userId: targetId, adminId, role: result.role }, "admin: role changed");
      return answer(200, true, "Rôle modifié", result.role === "admin" ? "Ce compte est maintenant administrateur." : "Ce compte n'est plus administrateur.");
  }
}

async function eraseAction(context: AppContext, adminId: string, targetId: string) {
  const result = await eraseUser(context.db, { actorId: adminId, targetId });
  switch (result.outcome) {
    case "missing":
      return answer(404, false, "Erreur", "Cet utilisateur n'existe pas.");
    case "refused":
      return answer(409, false, "Action refusée", result.message);
    case "unchanged":
      return answer(200, true, "Déjà effacé", "Les données de ce client ont déjà été effacées.");
    case "erased": {
      // The record of the erasure: who and when, ids and counts only.
      context.logger.info({ userId: targetId, adminId, orders: result.orders, requests: result.requests, emails: result.emails }, "gdpr: customer erased");
      // The rows no longer point to the photos: a file left by a failure is only an orphan.
      const failed = (await Promise.allSettled(result.photoKeys.map((key) => context.privateFiles.delete(key)))).filter((r) => r.status === "rejected");
      if (failed.length > 0) context.logger.warn({ userId: targetId, count: failed.length }, "gdpr: buy-back photos of an erased customer left in storage");
      return answer(200, true, "Données effacées", "Le compte est anonymisé et ses sessions sont fermées ; ses commandes restent dans les comptes.");
    }
  }
}

type Pending = { intent: UserAction; title: string; description: string; details?: string[]; confirmLabel: string; destructive: boolean } | null;

/** One account: its details, its orders, role changes and the GDPR tools. */
export default function AdminUser({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) return <Missing />;
  return <UserPage {...loaderData} />;
}

type Loaded = Extract<Route.ComponentProps["loaderData"], { found: true }>;

function UserPage({ user, orders, self, storeCredit }: Loaded) {
  const fetcher = useFetcher<ActionToast>();
  useActionToast(fetcher.data);
  const [pending, setPending] = useState<Pending>(null);
  const erased = user.erasedAt !== null;
  const busy = fetcher.state !== "idle";

  const ask: Record<UserAction, Exclude<Pending, null>> = {
    promote: {
      intent: "promote",
      title: "Promouvoir administrateur ?",
      description: `${user.name} aura accès à tout l'espace d'administration : produits, commandes, messages et utilisateurs.`,
      confirmLabel: "Promouvoir",
      destructive: false,
    },
    demote: {
      intent: "demote",
      title: "Retirer les droits d'administrateur ?",
      description: `${user.name} redeviendra un client et n'aura plus accès à l'espace d'administration.`,
      confirmLabel: "Retirer les droits",
      destructive: true,
    },
    erase: {
      intent: "erase",
      title: "Effacer les données de ce client ?",
      description: `Les données personnelles de ${user.name} seront effacées. Cette action est irréversible.`,
      details: [
        "Nom, e-mail, adresses et téléphone remplacés partout : compte, commandes, messages, e-mails.",
        "Sessions fermées et mot de passe supprimé : plus aucune connexion possible.",
        "Commandes conservées (articles, montants, pays) pour la comptabilité.",
      ],
      confirmLabel: "Effacer définitivement",
      destructive: true,
    },
  };

  return (
    <section className="space-y-6">
      <BackLink />

      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight break-all">{user.name}</h1>
        <UserBadges role={user.role} erased={erased} />
        {self ? <Badge tone="info">Vous</Badge> : null}
      </div>

      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-3 rounded-2xl border border-border bg-card p-4 text-sm sm:gap-x-6 sm:p-5">
          <Detail label="Email">
            <span className="break-all">{user.email}</span>
          </Detail>
          <Detail label="Rôle">{ROLE_LABELS[user.role]}</Detail>
          <Detail label="E-mail confirmé">{user.emailVerified ? "Oui" : "Non"}</Detail>
          <Detail label="Membre depuis">{formatParisDate(user.createdAt)}</Detail>
          {user.erasedAt ? <Detail label="Effacé le">{formatParisDate(user.erasedAt)}</Detail> : null}
          <Detail label="Commandes payées">
            <span className="tabular">{user.orderCount}</span>
          </Detail>
          <Detail label="Dernière commande">
            <span className="tabular">{formatDay(user.lastOrderAt)}</span>
          </Detail>
          <Detail label="Total dépensé">
            <span className="tabular">{formatEuros(user.spentCents)}</span>
          </Detail>
        </dl>

        <div className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5">
          <h2 className="font-bold">Actions</h2>
          {erased ? (
            <p className="text-sm text-muted-foreground">Ce compte a été effacé : il ne reste que ses commandes, sans coordonnées.</p>
          ) : (
            <>
              {user.role === "user" ? (
                <Button variant="secondary" disabled={busy} onClick={() => setPending(ask.promote)}>
                  <ShieldCheck aria-hidden="true" /> Promouvoir administrateur
                </Button>
              ) : (
                <Button variant="secondary" disabled={busy || self} onClick={() => setPending(ask.demote)}>
                  <ShieldOff aria-hidden="true" /> Retirer les droits d'administrateur
                </Button>
              )}
              <a href={`/admin/users/${user.id}/export`} download className={buttonVariants({ variant: "outline" })}>
                <Download aria-hidden="true" /> Exporter ses données (JSON)
              </a>
              <Button variant="destructive" disabled={busy || self || user.role === "admin"} onClick={() => setPending(ask.erase)}>
                <UserX aria-hidden="true" /> Effacer ses données (RGPD)
              </Button>
              {self ? (
                <p className="text-xs text-muted-foreground">C'est votre compte : un autre administrateur peut seul en retirer les droits.</p>
              ) : user.role === "admin" ? (
                <p className="text-xs text-muted-foreground">Pour effacer un administrateur, retirez d'abord ses droits.</p>
              ) : null}
            </>
          )}
        </div>
      </div>

      <OrdersTable orders={orders} />

      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        {storeCredit ? (
          <StoreCreditHistoryView history={storeCredit} titleId="store-credit-title" title="Avoir du client" />
        ) : (
          <p className="rounded-2xl border border-dashed border-border p-6 text-sm text-muted-foreground">Ce client n'a jamais eu d'avoir.</p>
        )}
        {erased ? null : <GoodwillForm />}
      </div>

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.title ?? ""}
        description={pending?.description ?? ""}
        confirmLabel={pending?.confirmLabel ?? ""}
        confirmVariant={pending?.destructive === false ? "primary" : "destructive"}
        busy={busy}
        onConfirm={() => {
          if (!pending) return;
          void fetcher.submit({ intent: pending.intent }, { method: "post" });
          setPending(null);
        }}
      >
        {pending?.details ? (
          <ul className="mt-3 list-disc space-y-1 pl-5 text-sm">
            {pending.details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

/** « Geste commercial »: amount and reason, credited to the customer's store credit. */
function GoodwillForm() {
  const fetcher = useFetcher<ActionToast>();
  useActionToast(fetcher.data);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5" aria-labelledby="goodwill-title">
      <h2 id="goodwill-title" className="font-bold">
        Geste commercial
      </h2>
      <input type="hidden" name="intent" value="goodwill" />
      <FormField label="Montant (€)" name="amount" inputMode="decimal" autoComplete="off" required disabled={busy} />
      <FormField label="Motif" name="reason" required maxLength={200} disabled={busy} hint="Le client le voit dans son compte et dans l'e-mail qui annonce l'avoir." />
      <Button type="submit" disabled={busy}>
        Créditer l'avoir
      </Button>
    </fetcher.Form>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </>
  );
}

function OrdersTable({ orders }: { orders: Loaded["orders"] }) {
  return (
    <div>
      <h2 className="text-xl font-bold">Commandes</h2>
      {orders.length === 0 ? (
        <p className="mt-3 rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">Aucune commande.</p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-2xl border border-border bg-card">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Commandes de ce compte</caption>
            <thead className="border-b border-border text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-3 font-medium sm:px-4">
                  <span className="sm:hidden">Commande</span>
                  <span className="max-sm:hidden">Numéro</span>
                </th>
                <th scope="col" className="hidden px-4 py-3 font-medium sm:table-cell">Date</th>
                <th scope="col" className="hidden px-4 py-3 font-medium sm:table-cell">Statut</th>
                <th scope="col" className="px-3 py-3 text-right font-medium sm:px-4">Total</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {orders.map((order) => (
                <tr key={order.number}>
                  <td className="px-3 py-1 sm:px-4">
                    <Link to={`/admin/orders/${order.number}`} className="tabular inline-flex min-h-11 items-center font-medium whitespace-nowrap text-accent hover:underline">
                      {order.number}
                    </Link>
                    <span className="flex flex-wrap items-center gap-2 pb-2 text-xs text-muted-foreground sm:hidden">
                      <span className="tabular">{formatDay(order.createdAt)}</span>
                      <StatusBadge status={order.status} />
                    </span>
                  </td>
                  <td className="tabular hidden px-4 py-2 whitespace-nowrap sm:table-cell">{formatDay(order.createdAt)}</td>
                  <td className="hidden px-4 py-2 sm:table-cell">
                    <StatusBadge status={order.status} />
                  </td>
                  <td className="tabular px-3 py-2 text-right whitespace-nowrap sm:px-4">{formatEuros(order.totalCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function StatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={PAID_ORDER_STATUSES.some((paid) => paid === status) ? "success" : "neutral"}>{ORDER_STATUS_LABELS[status]}</Badge>;
}

function Missing() {
  return (
    <section className="space-y-6">
      <BackLink />
      <Alert tone="error" title="Utilisateur introuvable">
        Cet utilisateur n'existe pas.
      </Alert>
    </section>
  );
}

function BackLink() {
  return (
    <Link to="/admin/users" className={buttonVariants({ variant: "ghost", className: "-ml-3" })}>
      <ArrowLeft aria-hidden="true" /> Utilisateurs
    </Link>
  );
}
