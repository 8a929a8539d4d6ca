import { useNavigation } from "react-router";

/**
 * While a page loads: a thin bar at the top, and on the way to a product page the
 * "Chargement du produit..." notice of SPEC.md (announced to screen readers).
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const loading = navigation.state !== "idle";
  const toProduct = navigation.state === "loading" && navigation.location.pathname.startsWith("/product/");
  return (
    <>
      <div
        aria-hidden="true"
        className={`pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-primary transition-transform duration-500 ${
          loading ? "scale-x-75" : "scale-x-0 duration-0"
        }`}
      />
      <div role="status" className="pointer-events-none fixed inset-x-0 top-20 z-50 flex justify-center">
        {toProduct ? (
          <p className="rounded-full border border-border bg-card px-4 py-2 text-sm font-medium shadow-lg">Chargement du produit...</p>
        ) : null}
      </div>
    </>
  );
}
