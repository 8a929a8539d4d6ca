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

export function withNotice(path: string, id: NoticeId): string {
  return `${path}${path.includes("?") ? "&" : "?"}notice=${id}`;
}
