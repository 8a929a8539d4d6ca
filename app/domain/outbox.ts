/** How the admin sees an outbox e-mail's status. */
export const OUTBOX_STATUS_LABELS = { pending: "En attente", sent: "Envoyé", failed: "Échec" } as const;
export const OUTBOX_STATUS_TONES = { pending: "warning", sent: "success", failed: "destructive" } as const;
