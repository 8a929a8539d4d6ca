import { Mail } from "lucide-react";
import { useRouteLoaderData } from "react-router";
import { InboxRequestForm, NETWORK_FAILURE, RequestPage } from "~/components/forms/inbox-request-form";
import { SocialLinks } from "~/components/layout/social-icon";
import { formPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";
import { inboxFormAction } from "~/services/inbox-form.server";
import type { Route } from "./+types/contact";

export function action({ request, context }: Route.ActionArgs) {
  return inboxFormAction("contact", { request, context });
}

/** With JavaScript: a lost connection shows the form's error state, not the error page. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch {
    return NETWORK_FAILURE;
  }
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, {
    title: `Contact | ${root.shop.name}`,
    description: "Une question, une carte recherchée, une demande particulière ? Écrivez-nous : nous vous répondrons très bientôt.",
    path: "/contact",
  });
};

export default function Contact({ actionData }: Route.ComponentProps) {
  const shop = useRouteLoaderData<typeof rootLoader>("root")?.shop;
  return (
    <RequestPage
      title="Contact"
      intro={
        <p>
          Une question sur un produit ou une commande, une carte que vous recherchez, une demande particulière&nbsp;? Écrivez-nous&nbsp;: nous lisons chaque
          message et vous répondons très bientôt.
        </p>
      }
      aside={
        shop ? (
          <>
            <h2 className="font-bold">Autres moyens de nous joindre</h2>
            {shop.email ? (
              <a href={`mailto:${shop.email}`} className="inline-flex min-h-11 items-center gap-2 break-all font-medium text-accent hover:underline">
                <Mail className="size-4 shrink-0" aria-hidden="true" />
                {shop.email}
              </a>
            ) : null}
            <SocialLinks socials={shop.socials} label="Nos réseaux sociaux" />
          </>
        ) : null
      }
    >
      <InboxRequestForm kind="contact" documentAnswer={actionData} />
    </RequestPage>
  );
}
