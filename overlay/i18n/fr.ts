/**
 * The overlay's interface in French, for pages whose `<html lang>` is `fr`
 * (or `fr-CA`, `fr-BE`…). Same keys as the English table: a key left out
 * fails `deno check`.
 *
 * @module
 */

import type { Strings } from "./en.ts";

/** The French table. */
export const fr: Strings = {
  // La barre.
  barLabel: "Éditeur de la page",
  barTitle: "Modification",
  loading: "Chargement…",
  hint: "Cliquez ou touchez un texte ou une image encadrés pour le modifier.",
  message: "Message",
  messagePlaceholder: "Qu’avez-vous changé ?",
  undo: "Annuler",
  undoTitle: "Annuler (Ctrl+Z hors d’un champ)",
  redo: "Rétablir",
  redoTitle: "Rétablir (Maj+Ctrl+Z hors d’un champ)",
  discardAll: "Tout abandonner",
  publish: "Publier",
  logOut: "Se déconnecter",
  more: "Plus",
  minimise: "Réduire",
  showEditor: "Afficher l’éditeur",
  mode: "Mode",
  modeEdit: "Modifier",
  modePreview: "Aperçu",
  dismiss: "Fermer",
  problemsLabel: "Problèmes à corriger",
  problemsCount: {
    one: "{count} problème à corriger",
    other: "{count} problèmes à corriger",
  },
  followLink: "Ctrl+clic (⌘+clic sur Mac) suit le lien",

  // L’état.
  noChanges: "Aucune modification non enregistrée",
  unsaved: {
    one: "{count} modification non enregistrée",
    other: "{count} modifications non enregistrées",
  },
  logInToEdit: "Connectez-vous pour modifier",
  notReady: "Pas prêt",
  noRegions: "Aucune zone modifiable sur cette page",
  nothingToPublish: "Rien à publier",
  publishing: "Publication…",
  uploading: "Envoi de l’image…",
  published: "Publié",
  publishedDetail: "« {message} » à {time}",
  publishedAt: "à {time}",
  notPublished: "Non publié",
  notUploaded: "Non envoyée",
  notPublishedConflict: "Non publié : quelqu’un a publié entre-temps",
  notPublishedLogIn: "Non publié : reconnectez-vous",
  notPublishedWait: "Non publié : patientez un instant",
  notPublishedRefused: {
    one: "Non publié : un champ a été refusé",
    other: "Non publié : {count} champs ont été refusés",
  },
  nothingLeft: "Plus rien à publier : leur version est gardée",
  notPublishedHeldBack: {
    one: "Non publié : corrigez d’abord le champ encadré",
    other: "Non publié : corrigez d’abord les {count} champs encadrés",
  },
  otherTabs: {
    one: "Aussi ouverte dans un autre onglet",
    other: "Aussi ouverte dans {count} autres onglets",
  },
  otherTabsShort: { one: "+1 onglet", other: "+{count} onglets" },
  loggedInAgain: "Reconnecté : appuyez sur Publier",
  notLoggedOut: "Pas déconnecté",

  // Les alertes.
  somethingWrong: "Un problème est survenu. Vos modifications sont gardées.",
  logoutFailed: "La déconnexion a échoué.",
  cannotStart: "L’éditeur n’a pas pu démarrer sur cette page.",
  brokenPage:
    "{path} ne peut pas être modifié : {why}. Le reste de la page peut l’être.",
  brokenPages:
    "{count} fichiers de page ne peuvent pas être modifiés : {paths}. Le reste de la page peut l’être.",
  brokenRefused: "le serveur refuse ce chemin de page",
  brokenMissing: "le fichier n’est pas dans le dépôt",
  brokenUnreadable: "le fichier ne contient pas d’objet JSON",
  refusedFields: {
    one: "{count} champ a été refusé. Il est encadré avec la raison.",
    other: "{count} champs ont été refusés. Chacun est encadré avec sa raison.",
  },
  refusedHighlighted: "Le champ en surbrillance a été refusé. {sentence}",
  refusedPage: "La page a été refusée. {sentence}",

  // Les questions.
  cancel: "Annuler",
  youHaveUnsaved: {
    one: "Vous avez {count} modification non enregistrée.",
    other: "Vous avez {count} modifications non enregistrées.",
  },
  publishEmptyTitle: "Publier un champ vide ?",
  publishEmptyText:
    "Ces champs contenaient des mots et sont maintenant vides. Les visiteurs n’y verront rien.",
  publishEmptyHeld: ", qui contenait « {value} »",
  publishAnyway: "Publier quand même",
  heldBackTitle: "Corrigez ces champs avant de publier",
  heldBackText:
    "Le site refuserait la page telle quelle. Rien n’a été envoyé. Corrigez chaque champ ci-dessous (il est encadré sur la page), puis appuyez à nouveau sur Publier.",
  imageDiscardTitle: "Abandonner l’image choisie ?",
  imageDiscardText:
    "L’image choisie, son recadrage et son texte alternatif ne sont pas encore utilisés.",
  keepEditing: "Continuer",
  discardImage: "L’abandonner",
  restoreOtherTab: {
    one:
      "Un autre onglet de ce navigateur a laissé {count} modification non enregistrée sur cette page, du {time}, pas encore publiée.",
    other:
      "Un autre onglet de ce navigateur a laissé {count} modifications non enregistrées sur cette page, du {time}, pas encore publiées.",
  },
  discardTitle: "Abandonner toutes les modifications non enregistrées ?",
  discardAfter: {
    one: "Elle ne pourra pas être récupérée.",
    other: "Elles ne pourront pas être récupérées.",
  },
  logoutTitle: "Se déconnecter avec des modifications non enregistrées ?",
  logoutAnyway: "Se déconnecter quand même",
  logoutAfter: {
    one:
      "Elle reste dans ce navigateur comme brouillon, proposé la prochaine fois que vous modifierez cette page.",
    other:
      "Elles restent dans ce navigateur comme brouillon, proposé la prochaine fois que vous modifierez cette page.",
  },
  restoreTitle: "Restaurer les modifications non enregistrées ?",
  restoreText: {
    one:
      "Vous avez {count} modification non enregistrée sur cette page, du {time}, pas encore publiée.",
    other:
      "Vous avez {count} modifications non enregistrées sur cette page, du {time}, pas encore publiées.",
  },
  discardThem: "Les abandonner",
  restore: "Restaurer",

  // La connexion.
  loginTitle: "Connectez-vous pour modifier ce site",
  siteKey: "Clé du site",
  siteKeyHint: "La clé que le propriétaire du site vous a donnée.",
  logIn: "Se connecter",
  typeKey: "Saisissez la clé du site.",
  wrongKey: "Cette clé n’est pas la bonne. Vérifiez-la et réessayez.",
  tooManyAttempts: "Trop de tentatives. {retry}",
  loginFailed: "La connexion a échoué.",
  sessionEnded:
    "Votre session a pris fin. Reconnectez-vous ; vos modifications sont gardées.",

  // Le lien.
  linkTitle: "Lien",
  address: "Adresse",
  addressHint:
    "Une page du site (/about), une #section, ou une adresse https:, http:, mailto: ou tel:.",
  linkTitleField: "Titre (facultatif)",
  removeLink: "Supprimer le lien",
  apply: "Appliquer",
  typeAddress: "Saisissez une adresse, ou appuyez sur Supprimer le lien.",
  linkNotAllowed: "Cette adresse n’est pas autorisée.",

  // L’image.
  imageTitle: "Remplacer l’image",
  imageFile: "Fichier image",
  imageFileHint:
    "JPEG, PNG ou WebP. Elle est recadrée, réduite à 2 400 px au plus et enregistrée en {format} ; elle est envoyée quand vous publiez.",
  cropShape: "Forme du recadrage",
  cropShapeLabel: "Forme du recadrage :",
  cropFree: "Libre",
  cropHint: "Déplacez le cadre ou ses coins pour choisir ce qui est gardé.",
  useImage: "Utiliser cette image",
  altText: "Texte alternatif",
  altHint: "Décrit l’image pour les personnes qui ne la voient pas.",
  chooseFirst: "Choisissez d’abord un fichier image.",
  markdownKept:
    "Gardé tel quel : ce bloc (du code, un tableau, du HTML…) se modifie dans le fichier de la page, pas ici",
  richTextFailed:
    "L’éditeur de texte n’a pas pu être chargé : vérifiez la connexion, puis cliquez à nouveau dans le texte. Ce que vous avez tapé est conservé.",
  cropperFailed:
    "L’outil de recadrage n’a pas pu être chargé : vérifiez la connexion et choisissez à nouveau le fichier.",
  notAnImage:
    "Ce fichier n’a pas pu être lu comme une image : choisissez un fichier JPEG, PNG ou WebP.",
  convertFailed:
    "Cette image n’a pas pu être convertie : choisissez un autre fichier.",
  fallbackJpeg:
    "Ce navigateur ne sait pas produire d’images {format} : l’image sera enregistrée en JPEG.",
  fallbackPng:
    "Ce navigateur ne sait pas produire d’images {format} : l’image a des parties transparentes et sera enregistrée en PNG.",

  // Le conflit.
  conflictTitle: "Quelqu’un a publié entre-temps",
  conflictText:
    "Quelqu’un d’autre a publié cette page pendant que vous la modifiiez. Vos modifications ne sont pas encore publiées, et elles sont gardées.",
  draftOlderText:
    "Vous avez des modifications non enregistrées sur cette page, faites avant que quelqu’un d’autre la publie.",
  keepMineList: {
    one:
      "Garder les miennes publie cette modification par-dessus leur version, car personne d’autre n’a changé ce champ :",
    other:
      "Garder les miennes publie ces {count} modifications par-dessus leur version, car personne d’autre n’a changé ces champs :",
  },
  bothChanged:
    "Vous avez tous deux changé les champs ci-dessous. Choisissez la version à garder pour chacun.",
  chooseEach:
    "Choisissez « Utiliser la mienne » ou « Utiliser la leur » pour chaque champ.",
  theirs: "La leur",
  mine: "La mienne",
  useMine: "Utiliser la mienne",
  useTheirs: "Utiliser la leur",
  reload: "Recharger",
  keepMine: "Garder les miennes",
  valueGone: "(supprimé)",
  valueEmpty: "(vide)",
  valueImage: "Image {src}",
  valueList: {
    one: "{count} élément : {items}",
    other: "{count} éléments : {items}",
  },
  valueNewImage: "Une nouvelle image, pas encore envoyée",

  // La barre de mise en forme.
  toolbarLabel: "Mise en forme du texte",
  bold: "Gras (Ctrl+B)",
  italic: "Italique (Ctrl+I)",
  codeSpan: "Code (Ctrl+E)",
  heading: "Intertitre (Ctrl+Alt+2)",
  quote: "Citation (Ctrl+Maj+B)",
  underline: "Souligné (Ctrl+U)",
  strike: "Barré",
  small: "Petits caractères",
  subscript: "Indice",
  superscript: "Exposant",
  bulletList: "Liste à puces",
  orderedList: "Liste numérotée",
  indent: "Augmenter le retrait (Ctrl+])",
  outdent: "Diminuer le retrait (Ctrl+[)",
  link: "Ajouter ou modifier un lien (Ctrl+K)",
  glyphBold: "G",
  glyphItalic: "I",
  glyphUnderline: "S",
  glyphStrike: "B",
  glyphSmall: "petit",
  glyphList: "• Liste",
  glyphNumbered: "1. Liste",
  glyphLink: "Lien",
  glyphHeading: "T",

  // Les zones de la page.
  editField: "Modifier {field}",
  editRichField:
    "Modifier {field} (texte riche : Alt+F10 pour la mise en forme, Ctrl+K pour un lien)",
  replaceImageField: "Remplacer l’image : {field}",
  fieldIn: "{field}, {noun} {position}",
  wordHeading: "intertitre",
  wordParagraph: "paragraphe",
  wordText: "texte",
  wordLinkText: "texte du lien",
  wordButtonText: "texte du bouton",
  wordListItem: "élément de liste",
  wordCaption: "légende",
  wordQuote: "citation",
  wordImage: "image",
  wordLink: "lien",
  wordTitle: "titre",

  // Listes, liens, panneau Page et texte alternatif (ticket 20).
  addAfter: "Ajouter après",
  keysUp: "Alt+Maj+↑",
  keysDown: "Alt+Maj+↓",
  keysCopy: "Alt+Maj+D",
  keysRemove: "Alt+Maj+Suppr",
  remove: "Supprimer",
  moveUp: "Monter",
  moveDown: "Descendre",
  drag: "Glisser pour déplacer : {noun}",
  itemControls: "Commandes : {noun}",
  listItem: "élément",
  listItemOf: "élément {name}",
  itemAdded: "Copie de {noun} {from} ajoutée comme {noun} {position}",
  itemRemoved: "{noun} {position} supprimé. Annuler le rétablit.",
  itemMoved: "{noun} {from} déplacé en position {position}",
  itemFirst: "{noun} 1 ajouté",
  addFirst: "Ajouter : {noun}",
  listTemplateEmpty:
    "Le modèle de cette liste ne contient aucun élément valide.",
  editLink: "Modifier le lien",
  editLinkTitle: "Modifier le lien : son adresse et son titre",
  linkTypeAddress: "Saisissez une adresse.",
  linkObjectHint:
    "Une page de ce site (choisissez-en une ou saisissez /about/), une #section, ou une adresse https:, http:, mailto: ou tel:.",
  linkButton: "Lien",
  page: "Page",
  pageTitle: "Page : les champs non affichés sur la page, comme sa description",
  pageFields:
    "Les champs de cette page qui n’y sont pas affichés, comme sa description pour les moteurs de recherche. Les modifications restent non enregistrées jusqu’à la publication.",
  pageOtherFile: "Aussi sur cette page, depuis {path}",
  pageNoFields: "Cette page n’a pas d’autre champ à modifier.",
  done: "Terminé",
  dateHint: "Enregistrée au format AAAA-MM-JJ.",
  editAlt: "Texte alternatif",
  editAltTitle:
    "Texte alternatif : décrivez cette image, ou marquez-la comme décorative",
  decorative: "Image décorative",
  decorativeHint:
    "Elle n’apporte rien au lecteur : les lecteurs d’écran l’ignorent (un alt vide).",
  newFileNewAlt: "Décrivez l’image, ou marquez-la comme image décorative.",

  // Zones non modifiables (ticket 22).
  regionNotPointer:
    "Le pointeur « {pointer} » n’est pas un JSON Pointer : cette zone ne peut pas être modifiée.",
  regionMissing:
    "Le fichier de la page n’a pas de « {key} » : vérifiez le pointeur « {pointer} » dans le gabarit. Cette zone ne peut pas être modifiée.",
  regionMissingIn:
    "« {parent} » n’a pas de « {key} » : vérifiez le pointeur « {pointer} » dans le gabarit. Cette zone ne peut pas être modifiée.",
  regionMarkdown:
    '« {field} » contient du markdown, mais le gabarit le marque comme texte riche : il est laissé tel quel pour ne pas être réécrit en HTML (marquez-le data-inpage-markdown="{pointer}").',
  regionMismatch:
    "« {field} » contient {value}, pas {wanted} : cette zone ne peut pas être modifiée.",
  wantText: "du texte",
  wantRichText: "du texte mis en forme",
  wantImage: "une image (un objet média avec src, width, height et alt)",
  wantList: "une liste",
  wantLink: "un lien (un objet avec href et un title facultatif)",
  heldText: "du texte (« {text} »)",
  heldList: "une liste",
  heldNull: "null",
  heldObject: "un objet",
  heldNumber: "un nombre",
  heldBoolean: "vrai ou faux",
  heldNothing: "rien",
  regionsNotEditable: {
    one:
      "@inpage/editor : {count} zone ne peut pas être modifiée (son pointeur ne désigne pas une valeur de son type)",
    other:
      "@inpage/editor : {count} zones ne peuvent pas être modifiées (leurs pointeurs ne désignent pas une valeur de leur type)",
  },
  regionNotEditableLine: '{attribute}="{pointer}" dans {path} : {sentence}',
  strayKey:
    "Le fichier de la page n’a pas de « {field} » : cette modification ajouterait une clé que le site n’affiche pas. Annulez-la ou corrigez le pointeur du gabarit.",
  notPublishedStray:
    "Non publié : une modification ne désigne rien dans le fichier de la page",
  nothingPublished: "Rien n’a été publié. {sentence}",
  imageFormatUnknown:
    '@inpage/editor : {attribute}="{value}" ne désigne aucun format que l’éditeur produit (webp, jpeg ou png) : les nouvelles images sont en WebP.',

  // Qui est connecté, et l’historique (ticket 23).
  loggedInAs: "Connecté en tant que {name}",
  history: "Historique",
  historyLoadFailed:
    "L’historique n’a pas pu être chargé : vérifiez la connexion et réessayez.",
  historyList: "Publications, la plus récente d’abord",
  historyOlder: "Plus anciennes",
  historyPageFile: "Fichier de la page",
  historyHint: "Choisissez une publication pour voir cette version sur place.",
  close: "Fermer",
  historyNoMessage: "Sans message",
  historyCurrent: "Version actuelle",
  historyEmpty: "Cette page n’a encore aucune publication.",
  historyReadFailed: "L’historique n’a pas pu être lu.",
  historyLoadingVersion: "Chargement de cette version…",
  historyVersionFailed: "Cette version n’a pas pu être lue.",
  historyViewing: "Version du {when} par {author}",
  historyViewingMessage: "Version du {when} par {author} — {message}",
  historyBack: "Revenir à l’actuelle",
  historyRestoreVersion: "Restaurer cette version",
  historyRestoreField: "Restaurer ce champ",
  historyRestoreFieldOf: "Restaurer ce champ : {field}",
  historyRestored: "Restauré",
  historyRestoredOf: "Restauré : {field}",
  historySame:
    "Chaque champ affiché ici contient ce qu’il contient maintenant.",
  historyDiffer: {
    one:
      "{count} champ diffère de maintenant, encadré ; il a « Restaurer ce champ ».",
    other:
      "{count} champs diffèrent de maintenant, encadrés ; chacun a « Restaurer ce champ ».",
  },
  historyFieldMessage: "Restaurer {field} tel qu’au {when}",
  historyFieldRestored:
    "« {field} » restauré comme modification non enregistrée. Revenez à la version actuelle pour le publier.",
  historyNothing:
    "Cette version contient ce que la page contient maintenant : rien à restaurer.",
  historyVersionMessage: "Restaurer la version du {when} par {author}",

  // Pourquoi les règles refusent un champ.
  reasonJson: "La page n’a pas pu être lue comme du JSON.",
  reasonShape: "Ce champ contient un type de valeur incorrect.",
  reasonDepth: "La page est imbriquée trop profondément.",
  reasonSize: "La page contient trop de valeurs.",
  reasonKey: "Un champ porte un nom non autorisé.",
  reasonDuplicateKey: "Un nom de champ apparaît deux fois.",
  reasonId: "Un id ne peut contenir que des lettres, des chiffres, - et _.",
  reasonDuplicateId: "Deux parties de la page ont le même id.",
  reasonMedia: "Cette image n’est pas une référence d’image valide.",
  reasonLink:
    "Ce lien n’est pas autorisé. Utilisez une page du site (/about), une #section, ou une adresse https:, http:, mailto: ou tel:.",
  reasonMarkup: "Ce texte contient une mise en forme non autorisée.",
  reasonNumber: "Un nombre ici ne peut pas être enregistré exactement.",
  reasonTemplate:
    "Ce texte contient {{, {% ou {#, que les gabarits du site exécuteraient comme du code.",
  reasonEmpty: "Ce champ est maintenant vide.",
  reasonOther: "Ce champ a été refusé par les règles des pages.",
  reasonPlainMarkup:
    "Le texte simple ne peut pas contenir « < » ni rien qui ressemble à du HTML : retirez-le.",

  // Quand réessayer.
  retryLater: "Réessayez dans quelques minutes.",
  retrySeconds: {
    one: "Réessayez dans {count} seconde.",
    other: "Réessayez dans {count} secondes.",
  },
  retryMinutes: {
    one: "Réessayez dans {count} minute (à {time}).",
    other: "Réessayez dans {count} minutes (à {time}).",
  },

  // Les refus du serveur, en mots.
  failRateLimited: "Trop de requêtes en peu de temps. {retry}",
  failTooLarge:
    "C’est trop volumineux pour être publié : réduisez la page ou l’image.",
  failUnsupportedFormat:
    "Ce format d’image n’est pas accepté : utilisez une image JPEG, PNG ou WebP de 1 à 10 000 pixels de côté.",
  failNetwork:
    "Le serveur est injoignable. Vos modifications sont gardées : réessayez dans un instant.",
  failUnavailable:
    "Le dépôt du site est injoignable. Vos modifications sont gardées : réessayez dans un instant.",
  failBadRequest:
    "Le serveur a refusé cette requête comme mal formée. Vos modifications sont gardées.",
  failNotFound: "Ce fichier de page est introuvable dans le dépôt.",
  failServer:
    "Un problème est survenu sur le serveur. Vos modifications sont gardées : réessayez dans un instant.",

  // Relecture : envoyer pour relecture, le panneau Relectures, les liens d'aperçu.
  sendForReview: "Envoyer pour relecture",
  reviewMessageNeeded:
    "Écrivez quelques mots sur vos modifications dans le champ de message : la personne qui relit les lira.",
  reviewSent: {
    one: "Envoyé pour relecture : {count} page. Elle n'est pas encore publiée.",
    other:
      "Envoyé pour relecture : {count} pages. Elles ne sont pas encore publiées.",
  },
  notSent: "Non envoyé pour relecture",
  heldClash:
    "Non envoyé : {pages}. Quelqu'un a modifié le même champ entre-temps : ouvrez cette page pour trancher, puis envoyez-la.",
  heldProblems:
    "Non envoyé : {pages}. Un champ y est à corriger : ouvrez cette page pour le corriger, puis envoyez-la.",
  alsoChangedOne: "Modifié aussi : {page}",
  alsoChanged: {
    one: "Modifié aussi : {count} autre page",
    other: "Modifié aussi : {count} autres pages",
  },
  alsoChangedShort: { one: "+1 page", other: "+{count} pages" },
  alsoChangedPages: {
    one: "Cet onglet a aussi modifié 1 autre page : {pages}.",
    other: "Cet onglet a aussi modifié {count} autres pages : {pages}.",
  },
  alsoChangedAuthor: "Envoyer pour relecture les emporte aussi.",
  alsoChangedPublisher:
    "Envoyer pour relecture les emporte aussi ; Publier ne publie que cette page.",
  reviews: "Relectures",
  reviewsTitle: "Relectures en cours",
  reviewsNone: "Aucune relecture en cours.",
  reviewsClose: "Fermer la liste",
  reviewByWhen: "par {author}, {when}",
  reviewPagesList: "Pages : {pages}",
  reviewScheduledFor: "Publication prévue à {when}",
  reviewFailed: "Non publiée à l'heure prévue : {reason}",
  reviewPublish: "Publier",
  reviewPublishNamed: "Publier la relecture « {message} »",
  reviewClose: "Fermer",
  reviewCloseNamed: "Fermer la relecture « {message} » sans la publier",
  reviewSchedule: "Programmer",
  reviewScheduleNamed: "Publier la relecture « {message} » à l'heure choisie",
  reviewScheduleAt: "Publier le",
  reviewCopyLink: "Copier le lien d'aperçu",
  reviewCopyLinkNamed: "Copier un lien d'aperçu de la relecture « {message} »",
  reviewLinkCopied:
    "Lien d'aperçu copié. Toute personne qui l'a peut voir la relecture pendant 72 heures, sans clé.",
  reviewLinkShown:
    "Lien d'aperçu (toute personne qui l'a peut voir la relecture pendant 72 heures) :",
  reviewPublished: "Relecture publiée.",
  reviewClosed: "Relecture fermée sans publication.",
  reviewScheduled: "La relecture sera publiée le {when}.",
  reviewOpen: "Ouvrir",
  reviewOpenNamed: "Ouvrir la relecture « {message} »",
  reviewBack: "Revenir à la page",
  reviewOpenNote:
    "Les parties changées sont encadrées. Rien n’est publié tant qu’un éditeur ne publie pas la relecture ; la modification est coupée jusqu’au retour à la page.",
  reviewUnseen: "Change aussi, hors de cette page : {fields}",
  reviewOtherPages: "Change aussi d’autres pages : {pages}",
  reviewElsewhereTitle: "Cette relecture est sur une autre page",
  reviewElsewhere:
    "Cette relecture change {pages}, pas cette page. Allez-y, puis ouvrez de nouveau la relecture pour la voir en place.",
  reviewGoThere: "Aller à {page}",
  reviewOpenFailed: "La relecture n’a pas pu être lue : {sentence}",
  reviewConflictTitle: "Des champs ont été publiés depuis la relecture",
  reviewConflictText:
    "Certains champs de cette relecture ont été publiés autrement depuis son envoi. Rien n’est encore publié. Choisissez pour chaque champ ; la relecture est ensuite publiée avec vos choix en une fois, puis fermée.",
  reviewKeptList: {
    one:
      "Cette modification de la relecture est publiée telle quelle, car personne d’autre n’a changé ce champ :",
    other:
      "Ces {count} modifications de la relecture sont publiées telles quelles, car personne d’autre n’a changé ces champs :",
  },
  reviewBothChanged:
    "La relecture et une publication depuis ont toutes deux changé les champs ci-dessous. Choisissez la version à garder pour chacun.",
  reviewChooseEach:
    "Choisissez « Prendre celle de la relecture » ou « Garder la publiée » pour chaque champ.",
  reviewTheirs: "Publiée maintenant",
  reviewMine: "Dans la relecture",
  reviewUseTheirs: "Garder la publiée",
  reviewUseMine: "Prendre celle de la relecture",
  reviewPublishChoices: "Publier la relecture",
  previewBanner: "Relecture « {message} » par {author} : non publiée",
  previewBannerNote:
    "Vous voyez un aperçu de modifications envoyées pour relecture. Les parties modifiées sont encadrées. Les visiteurs voient toujours la page publiée.",
  previewLabel: "Aperçu de relecture",
  previewInvalid:
    "Ce lien d'aperçu n'est pas valide : il a été modifié, il a expiré, ou sa relecture a été fermée. Vous voyez la page publiée.",
  previewUnavailable:
    "L'aperçu n'a pas pu être chargé. Vous voyez la page publiée.",
};
