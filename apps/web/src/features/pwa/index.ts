export { InstallPrompt } from './InstallPrompt.tsx';
export { openInstallGuide, promptInstall, useInstallState } from './install-store.ts';
