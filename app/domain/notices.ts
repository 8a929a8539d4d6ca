/**
 * Messages shown once after a redirect (`?notice=…`), read and removed from the address by
 * the page: works across the redirect with no session storage.
 */
export const NOTICES = {
  deconnecte: { title: "Déconnecté", description: "Vous avez été déconnecté avec succès." },
  "admin-connecte": { title: "Connecté", description: "Bienvenue dans l'espace administrateur." },
  "mot-de-passe-modifie": { title: "Mot de passe modifié", description: "Connectez-vous avec votre nouveau mot de passe." },
  "produit-ajoute": { title: "Produit ajouté", description: "Le produit a été ajouté au catalogue." },
  "produit-mis-a-jour": { title: "Produit mis à jour", description: "Les modifications ont été enregistrées avec succès." },
  "produit-duplique": { title: "Produit dupliqué", description: "Une copie du produit a été ajoutée au catalogue." },
} as const;

export type NoticeId = keyof typeof NOTICES;

export function noticeFor(id: string | null): (typeof NOTICES)[NoticeId] | null {
  return id && Object.hasOwn(NOTICES, id) ? NOTICES[id as NoticeId] : null;
}

/** The address with the notice in its query (before any fragment, where the server would not see it). */
export function withNotice(path: string, id: NoticeId): string {
  const hashAt = path.indexOf("#");
  const [address, hash] = hashAt < 0 ? [path, ""] : [path.slice(0, hashAt), path.slice(hashAt)];
  return `${address}${address.includes("?") ? "&" : "?"}notice=${id}${hash}`;
}
