import { EmailTestPanel } from "~/components/admin/email-test-panel";
import { emailTestAction, emailTestSetup } from "~/services/email-test.server";
import type { Route } from "./+types/test-email";

export const loader = ({ request, context }: Route.LoaderArgs) => emailTestSetup(request, context);

export const action = ({ request, context }: Route.ActionArgs) => emailTestAction(request, context);

export const meta: Route.MetaFunction = () => [{ title: "Test des e-mails de commande" }];

/** The order e-mail test in the admin area (also at /test-email, in the shop's layout). */
export default function AdminTestEmail({ loaderData, actionData }: Route.ComponentProps) {
  return <EmailTestPanel setup={loaderData} answer={actionData} />;
}
