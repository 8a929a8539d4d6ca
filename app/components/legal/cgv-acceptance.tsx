import { Link } from "react-router";

/** Just above the pay button (art. 1119 Code civil): paying accepts the CGV, linked. Also on the test payment page. */
export function CgvAcceptance() {
  return (
    <p className="text-center text-xs text-muted-foreground" data-testid="cgv-acceptance">
      En validant, vous acceptez nos{" "}
      <Link to="/legal#cgv" className="font-medium text-foreground underline underline-offset-2">
        conditions générales de vente
      </Link>
      .
    </p>
  );
}
