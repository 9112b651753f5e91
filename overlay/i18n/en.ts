/**
 * The overlay's interface in English: every sentence and label it shows,
 * by key. It is the fallback for any language without a table and for any
 * key a table leaves out. `{name}` marks a value put in; an entry with
 * `one` and `other` is chosen by the count's plural category
 * (`Intl.PluralRules`).
 *
 * @module
 */

/** An entry chosen by the plural category of a count. */
export interface Plural {
  /** For a count of one (in French: zero and one). */
  one: string;
  /** For other counts. */
  other: string;
  /** For languages that have these categories. */
  zero?: string;
  /** For languages that have these categories. */
  two?: string;
  /** For languages that have these categories. */
  few?: string;
  /** For languages that have these categories. */
  many?: string;
}

/** The English table; its type, {@linkcode Strings}, is every table's. */
export const en = {
  // The bar.
  barLabel: "Page editor",
  barTitle: "Editing",
  loading: "Loading…",
  hint: "Click or tap any outlined text or image to change it.",
  message: "Message",
  messagePlaceholder: "What did you change?",
  undo: "Undo",
  undoTitle: "Undo (Ctrl+Z outside a field)",
  redo: "Redo",
  redoTitle: "Redo (Shift+Ctrl+Z outside a field)",
  discardAll: "Discard all",
  publish: "Publish",
  logOut: "Log out",
  more: "More",
  minimise: "Minimise",
  showEditor: "Show editor",
  mode: "Mode",
  modeEdit: "Edit",
  modePreview: "Preview",
  dismiss: "Dismiss",
  problemsLabel: "Problems to fix",
  problemsCount: {
    one: "{count} problem to fix",
    other: "{count} problems to fix",
  },
  followLink: "Ctrl+click (⌘+click on a Mac) follows the link",

  // The status.
  noChanges: "No unsaved changes",
  unsaved: { one: "{count} unsaved change", other: "{count} unsaved changes" },
  logInToEdit: "Log in to edit",
  notReady: "Not ready",
  noRegions: "No editable regions on this page",
  nothingToPublish: "Nothing to publish",
  publishing: "Publishing…",
  uploading: "Uploading the image…",
  published: "Published",
  publishedDetail: "“{message}” at {time}",
  publishedAt: "at {time}",
  notPublished: "Not published",
  notUploaded: "Not uploaded",
  notPublishedConflict: "Not published: someone published meanwhile",
  notPublishedLogIn: "Not published: log in again",
  notPublishedWait: "Not published: wait a moment",
  notPublishedRefused: {
    one: "Not published: a field was refused",
    other: "Not published: {count} fields were refused",
  },
  nothingLeft: "Nothing left to publish: their version is kept",
  notPublishedHeldBack: {
    one: "Not published: fix the outlined field first",
    other: "Not published: fix the {count} outlined fields first",
  },
  otherTabs: {
    one: "Also open in another tab",
    other: "Also open in {count} other tabs",
  },
  otherTabsShort: { one: "+1 tab", other: "+{count} tabs" },
  loggedInAgain: "Logged in again: press Publish",
  notLoggedOut: "Not logged out",

  // Alerts.
  somethingWrong: "Something went wrong. Your changes are kept.",
  logoutFailed: "Logging out failed.",
  cannotStart: "The editor could not start on this page.",
  brokenPage:
    "{path} cannot be edited: {why}. The rest of the page can be edited.",
  brokenPages:
    "{count} page files cannot be edited: {paths}. The rest of the page can be edited.",
  brokenRefused: "the server refuses this page path",
  brokenMissing: "the file is not in the repository",
  brokenUnreadable: "the file does not hold a JSON object",
  refusedFields: {
    one: "{count} field was refused. It is outlined with its reason.",
    other: "{count} fields were refused. Each is outlined with its reason.",
  },
  refusedHighlighted: "The highlighted field was refused. {sentence}",
  refusedPage: "The page was refused. {sentence}",

  // Dialogs shared by several questions.
  cancel: "Cancel",
  youHaveUnsaved: {
    one: "You have {count} unsaved change.",
    other: "You have {count} unsaved changes.",
  },
  publishEmptyTitle: "Publish an empty field?",
  publishEmptyText:
    "These fields held words and are now empty. Visitors will see nothing there.",
  publishEmptyHeld: ", which held “{value}”",
  publishAnyway: "Publish anyway",
  heldBackTitle: "Fix these fields before publishing",
  heldBackText:
    "The site would refuse the page as it is. Nothing was sent. Fix each field below (it is outlined on the page), then press Publish again.",
  imageDiscardTitle: "Discard the chosen image?",
  imageDiscardText:
    "The image you chose, its crop and its alt text are not used yet.",
  keepEditing: "Keep editing",
  discardImage: "Discard it",
  restoreOtherTab: {
    one:
      "Another tab of this browser left {count} unsaved change on this page, from {time}, not yet published.",
    other:
      "Another tab of this browser left {count} unsaved changes on this page, from {time}, not yet published.",
  },
  discardTitle: "Discard all unsaved changes?",
  discardAfter: {
    one: "It cannot be brought back.",
    other: "They cannot be brought back.",
  },
  logoutTitle: "Log out with unsaved changes?",
  logoutAnyway: "Log out anyway",
  logoutAfter: {
    one:
      "It stays in this browser as a draft, offered when you next edit this page.",
    other:
      "They stay in this browser as a draft, offered when you next edit this page.",
  },
  restoreTitle: "Restore unsaved changes?",
  restoreText: {
    one:
      "You have {count} unsaved change on this page from {time}, not yet published.",
    other:
      "You have {count} unsaved changes on this page from {time}, not yet published.",
  },
  discardThem: "Discard them",
  restore: "Restore",

  // The login dialog.
  loginTitle: "Log in to edit this site",
  siteKey: "Site key",
  siteKeyHint: "The key the site's owner gave you.",
  logIn: "Log in",
  typeKey: "Type the site key.",
  wrongKey: "This key is not right. Check it and try again.",
  tooManyAttempts: "Too many attempts. {retry}",
  loginFailed: "Logging in failed.",
  sessionEnded: "Your session has ended. Log in again; your changes are kept.",

  // The link dialog.
  linkTitle: "Link",
  address: "Address",
  addressHint:
    "A page of the site (/about), a #section, or an https:, http:, mailto: or tel: address.",
  linkTitleField: "Title (optional)",
  removeLink: "Remove link",
  apply: "Apply",
  typeAddress: "Type an address, or press Remove link.",
  linkNotAllowed: "This address is not allowed.",

  // The image dialog.
  imageTitle: "Replace image",
  imageFile: "Image file",
  imageFileHint:
    "JPEG, PNG or WebP. It is cropped, scaled to at most 2,400 px and saved as {format}; it is uploaded when you publish.",
  cropShape: "Crop shape",
  cropShapeLabel: "Crop shape:",
  cropFree: "Free",
  cropHint: "Drag the frame or its corners to choose what to keep.",
  useImage: "Use this image",
  altText: "Alt text",
  altHint: "Describes the image for people who cannot see it.",
  chooseFirst: "Choose an image file first.",
  markdownKept:
    "Kept as written: this block (code, a table, HTML…) is changed in the page file, not here",
  richTextFailed:
    "The text editor could not be loaded: check the connection, then click the text again. What you typed is kept.",
  cropperFailed:
    "The cropper could not be loaded: check the connection and choose the file again.",
  notAnImage:
    "This file could not be read as an image: choose a JPEG, PNG or WebP file.",
  convertFailed: "This image could not be converted: choose another file.",
  fallbackJpeg:
    "This browser cannot make {format} images: the image will be saved as JPEG.",
  fallbackPng:
    "This browser cannot make {format} images: the image has transparent parts and will be saved as PNG.",

  // The conflict view.
  conflictTitle: "Someone published meanwhile",
  conflictText:
    "This page was published by someone else while you were editing it. Your changes are not published yet, and they are kept.",
  draftOlderText:
    "You have unsaved changes on this page, made before someone else published it.",
  keepMineList: {
    one:
      "Keep mine publishes this change of yours on top of their version, as nobody else changed that field:",
    other:
      "Keep mine publishes these {count} changes of yours on top of their version, as nobody else changed those fields:",
  },
  bothChanged:
    "Both of you changed the fields below. Choose which version to keep for each.",
  chooseEach: "Choose “Use mine” or “Use theirs” for each field.",
  theirs: "Theirs",
  mine: "Mine",
  useMine: "Use mine",
  useTheirs: "Use theirs",
  reload: "Reload",
  keepMine: "Keep mine",
  valueGone: "(gone)",
  valueEmpty: "(empty)",
  valueImage: "Image {src}",
  valueList: { one: "{count} item: {items}", other: "{count} items: {items}" },
  valueNewImage: "A new image, not uploaded yet",

  // The formatting toolbar.
  toolbarLabel: "Text formatting",
  bold: "Bold (Ctrl+B)",
  italic: "Italic (Ctrl+I)",
  codeSpan: "Code (Ctrl+E)",
  heading: "Heading (Ctrl+Alt+2)",
  quote: "Quote (Ctrl+Shift+B)",
  underline: "Underline (Ctrl+U)",
  strike: "Strikethrough",
  small: "Small print",
  subscript: "Subscript",
  superscript: "Superscript",
  bulletList: "Bulleted list",
  orderedList: "Numbered list",
  indent: "Indent list item (Ctrl+])",
  outdent: "Outdent list item (Ctrl+[)",
  link: "Add or edit a link (Ctrl+K)",
  glyphBold: "B",
  glyphItalic: "I",
  glyphUnderline: "U",
  glyphStrike: "S",
  glyphSmall: "small",
  glyphList: "• List",
  glyphNumbered: "1. List",
  glyphLink: "Link",
  glyphHeading: "H",

  // The page's regions (their accessible names).
  editField: "Edit {field}",
  editRichField:
    "Edit {field} (rich text: Alt+F10 for the toolbar, Ctrl+K for a link)",
  replaceImageField: "Replace image: {field}",
  fieldIn: "{field}, {noun} {position}",
  wordHeading: "heading",
  wordParagraph: "paragraph",
  wordText: "text",
  wordLinkText: "link text",
  wordButtonText: "button text",
  wordListItem: "list item",
  wordCaption: "caption",
  wordQuote: "quote",
  wordImage: "image",
  wordLink: "link",
  wordTitle: "title",

  // Lists, link objects, the Page panel and image alt text (issue 20).
  addAfter: "Add after",
  keysUp: "Alt+Shift+↑",
  keysDown: "Alt+Shift+↓",
  keysCopy: "Alt+Shift+D",
  keysRemove: "Alt+Shift+Delete",
  remove: "Remove",
  moveUp: "Move up",
  moveDown: "Move down",
  drag: "Drag to move this {noun}",
  itemControls: "{noun} controls",
  listItem: "item",
  listItemOf: "{name} item",
  itemAdded: "Added a copy of {noun} {from} as {noun} {position}",
  itemRemoved: "Removed {noun} {position}. Undo brings it back.",
  itemMoved: "Moved {noun} {from} to position {position}",
  itemFirst: "Added {noun} 1",
  addFirst: "Add a {noun}",
  listTemplateEmpty: "This list's template holds no valid item.",
  editLink: "Edit link",
  editLinkTitle: "Edit link: its address and title",
  linkTypeAddress: "Type an address.",
  linkObjectHint:
    "A page of this site (pick one or type /about/), a #section, or an https:, http:, mailto: or tel: address.",
  linkButton: "Link",
  page: "Page",
  pageTitle: "Page: the fields not shown on the page, such as its description",
  pageFields:
    "Fields of this page that are not shown on it, such as its description for search engines. Changes count as unsaved until you publish.",
  pageOtherFile: "Also on this page, from {path}",
  pageNoFields: "This page has no other fields to edit.",
  done: "Done",
  dateHint: "Saved as YYYY-MM-DD.",
  editAlt: "Alt text",
  editAltTitle: "Alt text: describe this image, or mark it decorative",
  decorative: "Decorative image",
  decorativeHint:
    "It adds nothing a reader needs: screen readers skip it (an empty alt).",
  newFileNewAlt: "Describe the image, or mark it as a decorative image.",

  // Regions that cannot be edited (issue 22).
  regionNotPointer:
    "The pointer “{pointer}” is not a JSON Pointer: this region cannot be edited.",
  regionMissing:
    "The page file has no “{key}”: check the pointer “{pointer}” in the template. This region cannot be edited.",
  regionMissingIn:
    "“{parent}” has no “{key}”: check the pointer “{pointer}” in the template. This region cannot be edited.",
  regionMarkdown:
    '“{field}” holds markdown, but the template marks it as rich text: it is left as it is so that it is not rewritten as HTML (mark it data-inpage-markdown="{pointer}").',
  regionMismatch:
    "“{field}” holds {value}, not {wanted}: this region cannot be edited.",
  wantText: "text",
  wantRichText: "rich text",
  wantImage: "an image (a media object with src, width, height and alt)",
  wantList: "a list",
  wantLink: "a link (an object with href and an optional title)",
  heldText: "text (“{text}”)",
  heldList: "a list",
  heldNull: "null",
  heldObject: "an object",
  heldNumber: "a number",
  heldBoolean: "true or false",
  heldNothing: "nothing",
  regionsNotEditable: {
    one:
      "@inpage/editor: {count} region cannot be edited (its pointer does not name a value of its kind)",
    other:
      "@inpage/editor: {count} regions cannot be edited (their pointers do not name a value of their kind)",
  },
  regionNotEditableLine: '{attribute}="{pointer}" in {path}: {sentence}',
  strayKey:
    "The page file has no “{field}”: this change would add a key that the site does not show. Undo it or fix the template's pointer.",
  notPublishedStray: "Not published: a change names nothing in the page file",
  nothingPublished: "Nothing was published. {sentence}",
  imageFormatUnknown:
    '@inpage/editor: {attribute}="{value}" names no format the overlay writes (webp, jpeg or png): new images are WebP.',

  // Who is logged in, and the History panel (issue 23).
  loggedInAs: "Logged in as {name}",
  history: "History",
  historyLoadFailed:
    "The history could not be loaded: check the connection and try again.",
  historyList: "Publishes, newest first",
  historyOlder: "Older",
  historyPageFile: "Page file",
  historyHint: "Choose a publish to see that version in place.",
  close: "Close",
  historyNoMessage: "No message",
  historyCurrent: "Current version",
  historyEmpty: "This page has no publishes yet.",
  historyReadFailed: "The history could not be read.",
  historyLoadingVersion: "Loading that version…",
  historyVersionFailed: "That version could not be read.",
  historyViewing: "Viewing the version of {when} by {author}",
  historyViewingMessage:
    "Viewing the version of {when} by {author} — {message}",
  historyBack: "Back to current",
  historyRestoreVersion: "Restore this version",
  historyRestoreField: "Restore this field",
  historyRestoreFieldOf: "Restore this field: {field}",
  historyRestored: "Restored",
  historyRestoredOf: "Restored: {field}",
  historySame: "Every field shown here holds what it holds now.",
  historyDiffer: {
    one:
      "{count} field differs from now, outlined; each has “Restore this field”.",
    other:
      "{count} fields differ from now, outlined; each has “Restore this field”.",
  },
  historyFieldMessage: "Restore {field} as of {when}",
  historyFieldRestored:
    "“{field}” restored as an unsaved change. Go back to the current version to publish it.",
  historyNothing:
    "This version holds what the page holds now: nothing to restore.",
  historyVersionMessage: "Restore the version of {when} by {author}",

  // Why the page rules refuse a field (a 422's reason).
  reasonJson: "The page could not be read as JSON.",
  reasonShape: "This field holds the wrong kind of value.",
  reasonDepth: "The page is nested too deeply.",
  reasonSize: "The page holds too many values.",
  reasonKey: "A field has a name that is not allowed.",
  reasonDuplicateKey: "A field name appears twice.",
  reasonId: "An id may hold only letters, digits, - and _.",
  reasonDuplicateId: "Two parts of the page share the same id.",
  reasonMedia: "This image is not a valid image reference.",
  reasonLink:
    "This link is not allowed. Use a page of the site (/about), a #section, or an https:, http:, mailto: or tel: address.",
  reasonMarkup: "This text holds formatting that is not allowed.",
  reasonNumber: "A number here cannot be stored exactly.",
  reasonTemplate:
    "This text holds {{, {% or {#, which the site's templates would run as code.",
  reasonEmpty: "This field is now empty.",
  reasonOther: "This field was refused by the page rules.",
  reasonPlainMarkup:
    "Plain text cannot hold “<” or anything written like HTML: remove it.",

  // When to retry.
  retryLater: "Try again in a few minutes.",
  retrySeconds: {
    one: "Try again in {count} second.",
    other: "Try again in {count} seconds.",
  },
  retryMinutes: {
    one: "Try again in {count} minute (at {time}).",
    other: "Try again in {count} minutes (at {time}).",
  },

  // Failures shown in the overlay (the server's refusals in words).
  failRateLimited: "Too many requests in a short time. {retry}",
  failTooLarge:
    "This is too large to publish: make the page or the image smaller.",
  failUnsupportedFormat:
    "This image format is not accepted: use a JPEG, PNG or WebP image between 1 and 10,000 pixels a side.",
  failNetwork:
    "The server could not be reached. Your changes are kept: try again in a moment.",
  failUnavailable:
    "The site's repository could not be reached. Your changes are kept: try again in a moment.",
  failBadRequest:
    "The server refused this request as malformed. Your changes are kept.",
  failNotFound: "This page file was not found in the repository.",
  failServer:
    "Something went wrong on the server. Your changes are kept: try again in a moment.",

  // Review: sending changes for review, the Reviews panel, preview links.
  sendForReview: "Send for review",
  reviewMessageNeeded:
    "Write a few words about your changes in the message box: the reviewer reads them.",
  reviewSent: {
    one: "Sent for review: {count} page. It is not published yet.",
    other: "Sent for review: {count} pages. They are not published yet.",
  },
  notSent: "Not sent for review",
  heldClash:
    "Not sent: {pages}. Someone changed the same field meanwhile: open that page to settle it, then send it.",
  heldProblems:
    "Not sent: {pages}. A field there needs fixing: open that page to fix it, then send it.",
  alsoChangedOne: "Also changed: {page}",
  alsoChanged: {
    one: "Also changed: {count} other page",
    other: "Also changed: {count} other pages",
  },
  alsoChangedShort: { one: "+1 page", other: "+{count} pages" },
  alsoChangedPages: {
    one: "This tab also changed 1 other page: {pages}.",
    other: "This tab also changed {count} other pages: {pages}.",
  },
  alsoChangedAuthor: "Send for review carries them too.",
  alsoChangedPublisher:
    "Send for review carries them too; Publish publishes this page only.",
  reviews: "Reviews",
  reviewsTitle: "Open reviews",
  reviewsNone: "No review is open.",
  reviewsClose: "Close the list",
  reviewByWhen: "by {author}, {when}",
  reviewPagesList: "Pages: {pages}",
  reviewScheduledFor: "Publishes at {when}",
  reviewFailed: "Not published as scheduled: {reason}",
  reviewPublish: "Publish",
  reviewPublishNamed: "Publish the review “{message}”",
  reviewClose: "Close",
  reviewCloseNamed: "Close the review “{message}” without publishing it",
  reviewSchedule: "Schedule",
  reviewScheduleNamed: "Publish the review “{message}” at the time chosen",
  reviewScheduleAt: "Publish at",
  reviewCopyLink: "Copy preview link",
  reviewCopyLinkNamed: "Copy a preview link of the review “{message}”",
  reviewLinkCopied:
    "Preview link copied. Anyone with it can see the review for 72 hours, without a key.",
  reviewLinkShown:
    "Preview link (anyone with it can see the review for 72 hours):",
  reviewPublished: "Review published.",
  reviewClosed: "Review closed without publishing.",
  reviewScheduled: "The review will be published at {when}.",
  reviewOpen: "Open",
  reviewOpenNamed: "Open the review “{message}”",
  reviewBack: "Back to the page",
  reviewOpenNote:
    "Changed parts are outlined. Nothing is published until a publisher publishes the review; editing is off until you go back to the page.",
  reviewUnseen: "Also changes, not shown on this page: {fields}",
  reviewOtherPages: "Also changes other pages: {pages}",
  reviewElsewhereTitle: "This review is on another page",
  reviewElsewhere:
    "This review changes {pages}, not this page. Go there, then open the review again to see it in place.",
  reviewGoThere: "Go to {page}",
  reviewOpenFailed: "The review could not be read: {sentence}",
  reviewConflictTitle: "Someone published these fields since the review",
  reviewConflictText:
    "Some fields of this review were published differently since it was sent. Nothing is published yet. Choose for each field, then the review is published with your choices in one go and closed.",
  reviewKeptList: {
    one:
      "This change of the review is published as it is, as nobody else changed that field:",
    other:
      "These {count} changes of the review are published as they are, as nobody else changed those fields:",
  },
  reviewBothChanged:
    "The review and a publish since both changed the fields below. Choose which version to keep for each.",
  reviewChooseEach:
    "Choose “Use the review’s” or “Keep the published one” for each field.",
  reviewTheirs: "Published now",
  reviewMine: "In the review",
  reviewUseTheirs: "Keep the published one",
  reviewUseMine: "Use the review’s",
  reviewPublishChoices: "Publish the review",
  previewBanner: "Review “{message}” by {author}: not published",
  previewBannerNote:
    "You are seeing a preview of changes sent for review. Changed parts are outlined. Visitors still see the published page.",
  previewLabel: "Review preview",
  previewInvalid:
    "This preview link is not valid: it was altered, it has expired, or its review was closed. You are seeing the published page.",
  previewUnavailable:
    "The preview could not be loaded. You are seeing the published page.",
};

/** A table of the overlay's strings: every language has every key. */
export type Strings = typeof en;
