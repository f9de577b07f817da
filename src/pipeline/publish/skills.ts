import { toJson, type Core } from '../../core/index.ts';
import { skills, skillsIndex } from '../../discovery/skills.ts';
import type { Publisher } from './publisher.ts';

/** The agent skills and their index, digests computed here from the bytes written. */
export async function emitSkills(core: Core, out: Publisher): Promise<void> {
  const dir = `${core.catalog.base}/.well-known/agent-skills`;
  for (const skill of skills(core)) await out.write(`${dir}/${skill.name}/SKILL.md`, skill.text);
  await out.write(`${dir}/index.json`, toJson(skillsIndex(core)));
}
