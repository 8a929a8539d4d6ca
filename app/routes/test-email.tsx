import { EmailTestPanel } from "~/components/admin/email-test-panel";
import { emailTestAction, emailTestSetup } from "~/services/email-test.server";
import type { Route } from "./+types/test-email";

/** Admins only, as every admin page: a visitor goes to /admin/login, a customer to /admin/unauthorized. */
export const loader = ({ request, context }: Route.LoaderArgs) => emailTestSetup(request, context);

export const action = ({ request, context }: Route.ActionArgs) => emailTestAction(request, context);

export const meta: Route.MetaFunction = () => [{ title: "Test des e-mails de commande" }, { name: "robots", content: "noindex" }];

/** SPEC.md's /test-email: the admin's order e-mail test in the shop's layout, linked from the header for admins. */
export default function TestEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <EmailTestPanel setup={loaderData} answer={actionData} />
    </div>
  );
}
