// The shell and accounts: sign-in and registration, generic errors, balance, error boundary, shell, install.
export const AUTH = {
  accountTypeRequired: 'Account type selection required',
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  fullNameRequired: 'Full name is required',
  usernameRequired: 'Username is required',
  phoneRequired: 'Phone number is required',
  dateOfBirthRequired: 'Date of birth is required',
  mustBeAdult: 'You must be 18 or older to create an account',
  passwordTooShort: 'Password must be at least 6 characters',
  loginNoUser: 'Login failed: No user returned',
  registrationNoUser: 'Registration failed: No user returned',
  signupsDisabled: 'Account creation is temporarily disabled. Please contact support or try signing in if you already have an account.',
  sessionExpiredToast: 'Your session has expired. Please log in again.',
  refreshFailed: 'Session expired. Please log in again.',
  authFailedExpired: 'Authentication failed - session expired',
  authExpired: 'Authentication expired. Please refresh the page and log in again.',
  authFailed: (detail: string) => `Authentication failed: ${detail}`,
  profileFailed: 'Failed to get user profile',
  balanceFailed: 'Failed to get user balance',
  profileTimeout: 'Profile fetch timeout',
  // Ours (SPEC is silent): wrong credentials, duplicates, rate limit, missing session.
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists. Try signing in instead.',
  usernameTaken: 'This username is already taken. Please choose another.',
  invalidEmail: 'Please enter a valid email address',
  tooManyAttempts: (minutes: number) => `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  signInRequired: 'Please sign in to continue.',
  passwordTooCommon: 'This password is too common and easy to guess. Please choose another.',
  forbidden: 'Access denied. Please check your permissions.',
  displayNameInvalid: 'Display name must be 1 to 40 characters',
  avatarUrlInvalid: 'Avatar must be an http(s) address or an uploaded image path',
  profileNotFound: 'Player not found',
  phoneInvalid: 'Please enter a valid phone number',
  fullNameTooLong: 'Full name must be at most 100 characters',
} as const;

const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

// Ours (SPEC is silent): the abuse limits' refusals (429, or 503 when busy), each with its wait.
export const LIMITS = {
  signUpPerAddress: (seconds: number) =>
    `Too many accounts have been created from this network recently. Please try again in ${inMinutes(seconds)}.`,
  signUpGlobal: (seconds: number) => `Too many accounts are being created right now. Please try again in ${inMinutes(seconds)}.`,
  codeLookups: (seconds: number) => `Too many code attempts. Please try again in ${inMinutes(seconds)}.`,
  busy: 'The server is busy right now. Please try again in a moment.',
} as const;

export const GENERIC = {
  network: 'Connection failed. Please check your internet connection and try again.',
  notFound: 'Service temporarily unavailable. Please try again later.',
  functionMissing: 'Database function not available. Please contact support.',
  timeout: 'Request timed out. Please try again.',
  permission: 'Access denied. Please check your permissions.',
  other: 'An unexpected error occurred. Please try again.',
  functionNotFound: (name: string) => `Database function '${name}' not found. Please ensure the latest migrations are applied.`,
  bucketNotFound: (name: string) => `Storage bucket '${name}' not found. Uploads are temporarily disabled.`,
  noInternet: 'No internet connection',
  connectionTimeout: 'Connection timeout after 5 seconds',
  // Ours: request shape errors.
  malformedJson: 'The request body is not valid JSON.',
  // A NUL character (U+0000) or an unpaired UTF-16 surrogate anywhere in a body, query or
  // socket message: PostgreSQL text cannot hold the one, and UTF-8 cannot encode the other.
  invalidCharacters: 'The request contains characters that are not allowed.',
  // A multipart form the parser cannot read (cut short, no boundary, more parts than allowed).
  uploadUnreadable: 'The upload could not be read. Choose one image and try again.',
  routeNotFound: 'Not found',
  // The database was unreachable for a moment (restart, failover, cut connection): HTTP 503.
  unavailable: 'Service temporarily unavailable, please retry',
  // A cookie-authorised request (refresh, sign-out) made by another site's page: CSRF.
  crossSite: 'This request came from another site and was refused. Please use Versus directly.',
} as const;

export const BALANCE = {
  loadFailed: 'Failed to load balance',
  addFailed: 'Failed to add credits',
  operationSuccessTitle: 'Operation Successful',
  operationSuccess: 'Credits will update shortly. Please refresh if needed.',
  added: (amount: string) => `${amount} credits added to your account.`,
  deducted: (amount: string) => `${amount} credits deducted from your account.`,
  insufficientTitle: (currency: string) => `Insufficient ${currency}`,
  insufficient: (amount: string, balance: string) => `Need ${amount} but only have ${balance}`,
  featureComingSoon: 'Feature Coming Soon',
} as const;

export const ERROR_BOUNDARY = {
  network: {
    title: 'Connection Problem',
    text: "We're having trouble connecting to our servers",
    hint: 'Please check your internet connection and try again',
    attempt: (n: number, cap: number) => `Retry attempt ${n}/${cap}`,
  },
  other: {
    title: 'Something went wrong',
    text: 'An unexpected error occurred',
    hint: 'Please try reloading the page or contact support if the problem persists',
  },
  tryAgain: 'Try Again',
  reload: 'Reload Page',
} as const;

export const SHELL_TEXT = {
  checkingAuth: 'Checking authentication...',
  loading: (product: string) => `Loading ${product}`,
  loadingChallenge: 'Loading challenge...',
  notFound: 'Oops! Page not found',
  returnHome: 'Return to Home',
  offline: 'Offline',
  gateTitle: 'Competitive Gaming Platform',
  gateSecure: 'Secure gaming platform with competitive integrity',
  gateJoin: 'Join thousands of players worldwide',
  welcomeBack: 'Welcome Back',
  join: (product: string) => `Join ${product}`,
  signInToViewNotifications: 'Sign in to view notifications',
} as const;

// SPEC §2 Always-present overlays and Modals, §4 PWA install prompt (our wording: SPEC is silent).
export const PWA = {
  promptTitle: 'Install Versus',
  promptBody: 'Add Versus to your home screen for full-screen play and quick access.',
  install: 'Install',
  notNow: 'Not now',
  howToInstall: 'How to install',
  guideTitle: 'Add Versus to your home screen',
  guideDescription: 'Your browser installs apps from its own menu. It takes three taps.',
  guideStepsIos: [
    'Tap the Share button in Safari’s toolbar.',
    'Scroll down and tap “Add to Home Screen”.',
    'Tap “Add”. Versus opens full screen from its icon.',
  ],
  guideStepsOther: [
    'Open your browser’s menu (⋮ or ⋯).',
    'Choose “Install app” or “Add to Home screen”.',
    'Confirm. Versus opens full screen from its icon.',
  ],
  gotIt: 'Got it',
  updateReady: 'A new version of Versus is ready',
  updateReadyDescription: 'Reload when convenient to use it.',
  reload: 'Reload',
} as const;
