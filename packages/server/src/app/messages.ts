/**
 * Every French sentence the API sends, in one place. Those quoted from the spec are verbatim
 * (docs/product.md §1.5, §1.8; docs/product.md §2.8); the others follow their tone.
 */
import { RECREATE_ACCOUNT_LIMIT } from '@bt/core/catalogue';

export const MSG = {
  // docs/product.md §1.8 / docs/product.md §2.8
  notAuthenticated: 'Non authentifié',
  invalidCredentials: 'Identifiants invalides',
  serverError: 'Erreur serveur',
  // The spec's sentence, with the limit taken from the catalogue (3).
  recreateLimit: `Tu as déjà recréé un compte ${RECREATE_ACCOUNT_LIMIT} fois avec cette adresse. Connecte-toi avec ton compte existant ou utilise un autre e-mail.`,
  resetRequested: 'Si un compte existe pour cette adresse, un lien de reset a été envoyé.',
  passwordTooShort: '8 caractères minimum.',
  passwordsDoNotMatch: 'Les mots de passe ne correspondent pas.',
  supportEmailInvalid: 'Merci d’entrer une adresse e-mail valide (doit contenir un @).',
  invalidOrExpiredLink: 'Lien invalide ou expiré.',
  alreadyVerified: 'Adresse déjà vérifiée.',
  verificationMailFailed: "Impossible de générer l'e-mail de vérification.",
  verificationResent: 'Nouveau lien de vérification envoyé.',

  // the server's own
  invalidApiKey: 'Clé API invalide ou expirée.',
  adminOnly: 'Accès réservé aux administrateurs.',
  notFound: 'Ressource introuvable.',
  methodNotAllowed: 'Méthode non autorisée.',
  bodyTooLarge: 'Requête trop volumineuse.',
  bodyInvalid: 'Corps de requête invalide.',
  singleValueExpected: (field: string) => `Champ « ${field.slice(0, 40)} » : une seule valeur attendue (pas une liste ni un objet).`,
  nulCharacter: (field: string) => `Champ « ${field.slice(0, 40)} » : caractère nul (U+0000) refusé.`,
  invalidPath: 'Chemin de fichier invalide.',
  allFieldsRequired: 'Tous les champs sont obligatoires.',
  emailInvalid: 'Adresse e-mail invalide.',
  usernameInvalid: "Nom d'utilisateur invalide (3 à 32 caractères : lettres, chiffres, . _ -).",
  emailTaken: 'Un compte existe déjà avec cette adresse e-mail.',
  usernameTaken: "Ce nom d'utilisateur est déjà pris.",
  registered: (credits: number) =>
    `Compte créé. Vérifie ton adresse e-mail pour recevoir tes ${credits} crédits offerts.`,
  loggedIn: 'Connexion réussie.',
  identifierRequired: 'Identifiant et mot de passe obligatoires.',
  emailRequired: 'Adresse e-mail obligatoire.',
  verificationUnavailable: "L'envoi d'e-mails n'est pas configuré sur ce serveur : la vérification de l'adresse est indisponible pour le moment.",
  registeredScreenLink: "Compte créé. L'envoi d'e-mails n'est pas configuré sur ce serveur : le lien ci-dessous vérifie ton adresse, mais les crédits offerts ne sont accordés que par un lien reçu par e-mail.",
  loggedOut: 'Déconnexion réussie.',
  mailNotConfigured:
    "L'envoi d'e-mails n'est pas configuré sur ce serveur : utilise le lien de vérification ci-dessous.",
  passwordReset: 'Mot de passe modifié. Tu peux te connecter.',
  passwordChanged: 'Mot de passe modifié.',
  currentPasswordWrong: 'Mot de passe actuel incorrect.',
  currentPasswordRequired: 'Mot de passe actuel obligatoire.',
  currentPasswordForDeletion: 'Mot de passe actuel obligatoire pour supprimer ton compte.',
  newPasswordRequired: 'Nouveau mot de passe obligatoire.',
  profileUpdated: 'Profil mis à jour.',
  nothingToUpdate: 'Aucune modification demandée.',
  fullNameInvalid: 'Nom complet invalide (100 caractères maximum).',
  noSubscription: 'Aucun abonnement actif.',
  unsubscribed: (until: string) => `Abonnement résilié : il reste actif jusqu’au ${until}, sans renouvellement.`,
  accountDeleted: 'Compte supprimé.',
  supportTypeInvalid: 'Type de message invalide (contact ou feedback).',
  supportTooLong: (max: number) => `Message trop long (${max} caractères maximum).`,
  supportFirstNameTooLong: (max: number) => `Prénom trop long (${max} caractères maximum).`,
  supportLastNameTooLong: (max: number) => `Nom trop long (${max} caractères maximum).`,
  supportSent: 'Message envoyé. Merci !',
  rateLimited: (seconds: number) => `Trop de requêtes. Réessaie dans ${seconds} s.`,
  tooManySignInAttempts: (seconds: number) => `Trop de tentatives de connexion pour ce compte. Réessaie dans ${seconds} s.`,
  // An account without a password (created by a Google sign-in) proves itself by a recent sign-in.
  reauthRequired: (provider: string, minutes: number) =>
    `Ce compte n’a pas de mot de passe : confirme d’abord ton identité avec ${provider}, puis recommence dans les ${minutes} minutes.`,
  reauthByMail: 'Ce compte n’a pas de mot de passe : utilise « Mot de passe oublié » pour recevoir un lien à ton adresse e-mail.',
  tooManyConnections: 'Trop de connexions ouvertes depuis ton adresse. Réessaie dans quelques secondes.',
  databaseDown: 'Base de données indisponible.',
  featureUnavailable: 'Cette fonction est momentanément indisponible sur ce serveur. Réessaie plus tard.',
  notReady: (down: string[]) => `Serveur pas prêt : ${down.join(', ')} indisponible${down.length > 1 ? 's' : ''}.`,
  providerNotConfigured: (provider: string) => `La connexion avec ${provider} n'est pas configurée sur ce serveur.`,
  providerUnknown: 'Fournisseur de connexion inconnu.',
  // One answer for every refused redeem (unknown, used, expired code; missing or other cookie):
  // which one it was would tell a code's holder whether it had been good (oidc/codes.ts).
  providerCodeRefused: (provider: string) => `La connexion avec ${provider} a expiré ou a été commencée dans un autre navigateur. Réessaie.`,
  insufficientCredits: (needed: number, balance: number) =>
    `Crédits insuffisants : ${needed} crédit${needed > 1 ? 's' : ''} nécessaire${needed > 1 ? 's' : ''}, solde ${balance}.`,
} as const;
