export { InstallPrompt } from './InstallPrompt.tsx';
