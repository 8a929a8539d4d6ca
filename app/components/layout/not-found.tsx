import { Compass } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { buttonVariants } from "~/components/ui/button";

const PRODUCT_REDIRECT_DELAY_MS = 5000;

/** A vanished product page sends the visitor to the catalogue after 5 seconds. */
export function shouldRedirectToCatalog(pathname: string): boolean {
  return pathname.includes("/product/") && !pathname.includes("/product/undefined");
}

export function NotFound() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const redirecting = shouldRedirectToCatalog(pathname);
  const [seconds, setSeconds] = useState(PRODUCT_REDIRECT_DELAY_MS / 1000);

  useEffect(() => {
    console.error(`404 : la page ${pathname} n'existe pas`);
    if (!redirecting) return;
    const started = Date.now();
    const tick = setInterval(() => {
      const left = Math.max(0, Math.ceil((PRODUCT_REDIRECT_DELAY_MS - (Date.now() - started)) / 1000));
      setSeconds(left);
    }, 250);
    const timer = setTimeout(() => navigate("/catalog", { replace: true }), PRODUCT_REDIRECT_DELAY_MS);
    return () => {
      clearInterval(tick);
      clearTimeout(timer);
    };
  }, [pathname, redirecting, navigate]);

  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <Compass className="size-12 text-amber-700 dark:text-primary" aria-hidden="true" />
      <p className="tabular mt-6 text-7xl font-black tracking-tight text-amber-700 sm:text-8xl dark:text-primary">404</p>
      <h1 className="mt-4 text-2xl font-extrabold sm:text-3xl">Cette page a disparu</h1>
      <p className="mt-3 max-w-md text-muted-foreground">
        La page que vous cherchez n'existe pas ou a été déplacée. Comme une carte rare, elle s'est peut-être envolée.
      </p>
      {redirecting ? (
        <p role="status" className="mt-6 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-sm font-medium text-warning">
          Ce produit n'est plus disponible. Vous allez être redirigé vers le catalogue dans {seconds} seconde{seconds > 1 ? "s" : ""}.
        </p>
      ) : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonVariants({ variant: "primary" })}>
          Retour à l'accueil
        </Link>
        <Link to="/catalog" className={buttonVariants({ variant: "outline" })}>
          Voir le catalogue
        </Link>
      </div>
    </section>
  );
}
