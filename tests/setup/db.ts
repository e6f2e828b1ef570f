// Global setup of the `db` project: PostgreSQL + migrated template only.
import type { TestProject } from 'vitest/node';
import './context.ts';
import { startTemplateDatabase, TEMPLATE_DB } from './stack.ts';

export default async function setup(project: TestProject) {
  const db = await startTemplateDatabase();
  project.provide('adminUrl', db.url);
  project.provide('templateDb', TEMPLATE_DB);
  return () => db.stop();
}
