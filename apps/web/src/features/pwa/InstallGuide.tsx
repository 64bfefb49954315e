import { PWA } from '@versus/domain';
import { Button, Dialog, DialogContent } from '../../ui/index.ts';
import { isIosSafari } from './install-prompt.ts';
import { closeInstallGuide, openInstallGuide } from './install-store.ts';

/** The install-to-home-screen steps for browsers without the install dialog. */
export default function InstallGuide({ open }: { open: boolean }) {
  const steps = isIosSafari(navigator.userAgent, navigator.maxTouchPoints) ? PWA.guideStepsIos : PWA.guideStepsOther;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? openInstallGuide() : closeInstallGuide())}>
      <DialogContent title={PWA.guideTitle} description={PWA.guideDescription} data-testid="pwa-install-guide">
        <ol className="grid gap-3">
          {steps.map((step, index) => (
            <li key={step} className="flex items-start gap-3 rounded-xl border border-border bg-bg/50 p-3.5 text-sm">
              <span className="bg-brand inline-flex size-7 shrink-0 items-center justify-center rounded-full font-bold text-white">
                {index + 1}
              </span>
              <span className="pt-1" data-step>
                {step}
              </span>
            </li>
          ))}
        </ol>
        <Button className="mt-6 w-full" variant="secondary" onClick={closeInstallGuide}>
          {PWA.gotIt}
        </Button>
      </DialogContent>
    </Dialog>
  );
}
