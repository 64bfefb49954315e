import { createTemplate } from './database.ts';

export default async function setup() {
  await createTemplate();
}
