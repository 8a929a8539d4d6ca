import { ArrowLeft, CalendarClock, Lightbulb, LayoutTemplate, MessageSquareText } from "lucide-react";
import { data, Link } from "react-router";
import type { SettingsAnswer } from "~/components/promotions/settings-card";
import { INVALID_FORM_TOAST } from "~/components/promotions/settings-card";
import { CountdownForm, HeroBannerForm, PromotionForm } from "~/components/promotions/promotion-forms";
import { buttonVariants } from "~/components/ui/button";
import { fieldErrors } from "~/domain/auth-forms";
import {
  countdownFormSchema,
  countdownFormValues,
  countdownSavedToast,
  countdownStatus,
  defaultPromotionDraft,
  heroBannerFormSchema,
  heroBannerSavedToast,
  heroBannerStatus,
  promotionFormSchema,
  promotionFormValues,
  promotionSavedToast,
  promotionStatus,
} from "~/domain/site-content";
import { getSiteContent, saveCountdown, saveHeroBanner, savePromotion } from "~/services/site-content.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/promotions";
import { readForm } from "~/lib/request-input.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const now = new Date();
  const { promotion, promotionSaved, countdown, hero } = await getSiteContent(context.db);
  return {
    // Never saved: SPEC.md's draft, a 15 % site-wide code ending in 7 days (still hidden).
    promotion: promotionFormValues(promotionSaved ? promotion : defaultPromotionDraft(now)),
    countdown: countdownFormValues(countdown),
    hero,
    status: { promotion: promotionStatus(promotion, now), countdown: countdownStatus(countdown, now), hero: heroBannerStatus(hero) },
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Gestion des promotions" }];

const answer = (status: number, body: SettingsAnswer) => data(body, { status });

/**
 * Saves one card (intent promotion, countdown or hero) after the same schema as the form. The
 * site_settings trigger then purges the cached pages and tells open pages (server/main.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const form = Object.fromEntries(await readForm(request));
  const now = new Date();
  const invalid = (error: Parameters<typeof fieldErrors>[0]) => answer(400, { ok: false, toast: INVALID_FORM_TOAST, fieldErrors: fieldErrors(error) });
  try {
    switch (form.intent) {
      case "promotion": {
        const parsed = promotionFormSchema.safeParse(form);
        if (!parsed.success) return invalid(parsed.error);
        await savePromotion(context.db, parsed.data, now);
        return answer(200, { ok: true, toast: promotionSavedToast(parsed.data, now) });
      }
      case "countdown": {
        const parsed = countdownFormSchema.safeParse(form);
        if (!parsed.success) return invalid(parsed.error);
        await saveCountdown(context.db, parsed.data, now);
        return answer(200, { ok: true, toast: countdownSavedToast(parsed.data, now) });
      }
      case "hero": {
        const parsed = heroBannerFormSchema.safeParse(form);
        if (!parsed.success) return invalid(parsed.error);
        await saveHeroBanner(context.db, parsed.data, now);
        return answer(200, { ok: true, toast: heroBannerSavedToast(parsed.data) });
      }
      default:
        return answer(400, { ok: false, toast: { title: "Erreur", description: "Requête invalide." } });
    }
  } catch (error) {
    context.logger.error({ err: error, intent: form.intent }, "admin: site content save failed");
    return answer(500, { ok: false, toast: { title: "Erreur", description: "L'enregistrement a échoué. Réessayez dans un instant." } });
  }
}

export default function AdminPromotions({ loaderData }: Route.ComponentProps) {
  const { promotion, countdown, hero, status } = loaderData;
  return (
    <section>
      <Link to="/admin" className={buttonVariants({ variant: "ghost", size: "sm" })}>
        <ArrowLeft aria-hidden="true" /> Retour à l'administration
      </Link>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight">Gestion des promotions</h1>
      <p className="mt-1 text-sm text-muted-foreground">Ce que vous enregistrez ici s'affiche aussitôt chez tous les visiteurs, pages déjà ouvertes comprises.</p>
      <div className="mt-6 grid gap-6 xl:grid-cols-[1fr_20rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <PromotionForm values={promotion} status={status.promotion} />
          <CountdownForm values={countdown} status={status.countdown} />
          <HeroBannerForm values={hero} status={status.hero} />
        </div>
        <UsageTips />
      </div>
    </section>
  );
}

const TIPS = [
  {
    icon: LayoutTemplate,
    title: "Placement",
    text: "Le bandeau de promotion peut couvrir tout le site, ou seulement l'accueil ou le panier. Le compte à rebours s'affiche sur l'accueil, les pages du catalogue ou partout\u00a0; la bannière d'accueil, en haut de la page d'accueil.",
  },
  {
    icon: CalendarClock,
    title: "Date d'expiration",
    text: "Les heures sont celles de Paris. La promotion disparaît d'elle-même après son expiration, le compte à rebours à sa fin, et les produits masqués reviennent au même moment, sans que vous ayez à revenir ici.",
  },
  {
    icon: MessageSquareText,
    title: "Message",
    text: "Court et concret\u00a0: l'avantage, puis la condition («\u00a0-15 % sur tout le site jusqu'à dimanche\u00a0»). Le code s'affiche à côté du message\u00a0: inutile de le répéter.",
  },
  {
    icon: Lightbulb,
    title: "Astuces",
    text: "Pour une sortie, masquez la catégorie jusqu'à l'heure d'ouverture\u00a0: l'attente crée l'événement. Le code de la promotion fonctionne au panier tant qu'elle est affichée\u00a0; retrouvez son utilisation dans Codes promo.",
  },
];

function UsageTips() {
  return (
    <aside aria-labelledby="tips-title" className="h-fit rounded-2xl border border-border bg-card p-5 xl:sticky xl:top-24">
      <h2 id="tips-title" className="text-lg font-bold">
        Conseils d'utilisation
      </h2>
      <ul className="mt-4 flex flex-col gap-4">
        {TIPS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-3">
            <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
            <div>
              <h3 className="text-sm font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}
