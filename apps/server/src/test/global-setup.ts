import { createTemplate, dropTemplate } from './database.ts';

export default async function setup() {
  await createTemplate();
  return dropTemplate;
}
