import { Badge } from "~/components/ui/badge";

/** The role and erased markers beside a user's name (the users list and a user's page). */
export function UserBadges({ role, erased }: { role: "user" | "admin"; erased: boolean }) {
  return (
    <>
      {role === "admin" ? <Badge tone="accent">Admin</Badge> : null}
      {erased ? <Badge tone="neutral">Effacé</Badge> : null}
    </>
  );
}
