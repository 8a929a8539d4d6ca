import { LogOut } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button, type ButtonProps } from "~/components/ui/button";

/** Signs out (POST /logout); the next page shows "Déconnecté". Works without JavaScript. */
export function LogoutButton({ redirectTo = "/", ...props }: ButtonProps & { redirectTo?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/logout";
  return (
    <Form method="post" action="/logout">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Button type="submit" variant="outline" disabled={busy} {...props}>
        <LogOut aria-hidden="true" /> {busy ? "Déconnexion..." : "Se déconnecter"}
      </Button>
    </Form>
  );
}
