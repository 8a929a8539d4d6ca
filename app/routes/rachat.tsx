import { useRouteLoaderData } from "react-router";
import { InboxRequestForm, NETWORK_FAILURE, RequestPage } from "~/components/forms/inbox-request-form";
import { SocialLinks } from "~/components/layout/social-icon";
import { formPageHeaders } from "~/lib/http";
import { pageMeta, seoRoot } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";
import { inboxFormAction } from "~/services/inbox-form.server";
import type { Route } from "./+types/rachat";

export function action({ request, context }: Route.ActionArgs) {
  return inboxFormAction("rachat", { request, context });
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
    title: `Rachat de collection | ${root.shop.name}`,
    description: "Vous vendez vos cartes, vos produits scellés ou vos jeux ? Décrivez votre collection, joignez des photos : nous vous faisons une offre.",
    path: "/rachat",
  });
};

export default function Rachat({ actionData }: Route.ComponentProps) {
  const shop = useRouteLoaderData<typeof rootLoader>("root")?.shop;
  return (
    <RequestPage
      title="Rachat de collection"
      intro={
        <p>
          Vous souhaitez vendre vos cartes Pokémon, Magic ou One Piece, vos produits scellés ou vos jeux&nbsp;? Décrivez votre collection et joignez quelques
          photos&nbsp;: nous l'estimons et vous faisons une offre, par e-mail ou par message.
        </p>
      }
      aside={
        shop ? (
          <>
            <h2 className="font-bold">Vous préférez en parler sur les réseaux&nbsp;?</h2>
            <p className="text-muted-foreground">Envoyez-nous un message privé avec vos photos&nbsp;:</p>
            <SocialLinks socials={shop.socials} label="Nous contacter sur les réseaux sociaux" />
          </>
        ) : null
      }
    >
      <InboxRequestForm kind="rachat" documentAnswer={actionData} />
    </RequestPage>
  );
}
