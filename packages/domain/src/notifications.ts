// Notifications (SPEC §3, §4, §5, §8, §9), shared by the server and the web app:
// `@versus/domain/notifications`.
export * from './notifications/enums.ts';
export * from './notifications/rules.ts';
export * from './notifications/templates.ts';
export * from './notifications/schema.ts';
export * from './notifications/views.ts';
export * from './notifications/build.ts';
