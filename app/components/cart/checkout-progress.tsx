/** The checkout's progress bar and its message (SPEC.md section 4). */
export function CheckoutProgress({ progress, message }: { progress: number; message: string }) {
  return (
    <div className="flex flex-col gap-2" aria-live="polite">
      <div
        role="progressbar"
        aria-label="Préparation du paiement"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width] duration-300 ease-out motion-reduce:transition-none" style={{ width: `${progress}%` }} />
      </div>
      <p className="text-sm text-muted-foreground">{message}</p>
    </div>
  );
}
