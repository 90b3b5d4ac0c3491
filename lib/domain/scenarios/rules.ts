// Scenario rules (docs/api.md "Scenario rules"): a merchant's sandbox rules that conclude matching new payments.
// One service for the API (/v1/sandbox/scenario-rules) and the console (Callbacks page, Server Actions); every
// change writes one audit row in its transaction.
import { writeAudit, type AuditActor } from "@/lib/domain/audit";
import { IdRow, parseRows, withTransaction, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { Prisma, type ScenarioRule as ScenarioRuleRow } from "@/lib/platform/generated/prisma/client";
import { fromMinor, toMinor } from "@/lib/contract/money/currency";
import { pageOf } from "@/lib/contract/pagination";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { FailureCode } from "@/lib/contract/schemas/api/failure-codes";
import {
  ScenarioOutcome,
  type CreateScenarioRule,
  type ScenarioMatch,
  type ScenarioRuleResource,
  type UpdateScenarioRule,
} from "@/lib/contract/schemas/api/scenario-rules";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

/** The most rules one merchant may have (one page of the list). */
export const MAX_SCENARIO_RULES = 100;

/**
 * docs/api.md "Scenario rules" (docs/guides/test-every-path.md "Testing your integration"): the ready set added by one call or one click,
 * each enabled. Named so that adding the set again adds only what is missing.
 */
export const STANDARD_RULES: readonly CreateScenarioRule[] = [
  { name: "Amount 13.13 fails", enabled: true, match: { amount: "13.13" }, outcome: "FAILED", delayMs: 0 },
  { name: "Amount 14.14 expires", enabled: true, match: { amount: "14.14" }, outcome: "EXPIRE", delayMs: 0 },
  { name: "Amount 15.15 succeeds", enabled: true, match: { amount: "15.15" }, outcome: "SUCCEEDED", delayMs: 0 },
  { name: "Reference fail- fails", enabled: true, match: { referencePrefix: "fail-" }, outcome: "FAILED", delayMs: 0 },
  { name: "Reference ok- succeeds", enabled: true, match: { referencePrefix: "ok-" }, outcome: "SUCCEEDED", delayMs: 0 },
  { name: "Reference slow- succeeds after 30 s", enabled: true, match: { referencePrefix: "slow-" }, outcome: "SUCCEEDED", delayMs: 30_000 },
];

/**
 * A rule row as the API answers it (amount as two-decimal text; `failureCode` only when the rule has one).
 * @throws StoredDataError when a stored outcome or failure code is not one of the schema's
 */
export function serializeRule(row: ScenarioRuleRow): ScenarioRuleResource {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    position: row.position,
    match: {
      amount: row.matchAmount === null ? null : fromMinor(toMinor(row.matchAmount.toString())),
      referencePrefix: row.matchReferencePrefix,
      method: row.matchMethod,
      direction: row.matchDirection,
      currency: row.matchCurrency,
    },
    outcome: parseStored(ScenarioOutcome, row.outcome, "scenario_rules.outcome"),
    delayMs: row.delayMs,
    ...(row.failureCode === null ? {} : { failureCode: parseStored(FailureCode, row.failureCode, "scenario_rules.failure_code") }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The columns of a rule's match. */
function matchColumns(match: ScenarioMatch) {
  return {
    matchAmount: match.amount === undefined ? null : new Prisma.Decimal(match.amount),
    matchReferencePrefix: match.referencePrefix ?? null,
    matchMethod: match.method ?? null,
    matchDirection: match.direction ?? null,
    matchCurrency: match.currency ?? null,
  };
}

/**
 * `GET /v1/sandbox/scenario-rules`: every rule of a merchant by position, as one page `{items, total, page, limit, pages}`.
 */
export async function listScenarioRules(db: Db, merchantId: string) {
  const rows = await db.scenarioRule.findMany({ where: { merchantId, deletedAt: null }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });
  return pageOf(rows.map(serializeRule), rows.length, { page: 1, limit: MAX_SCENARIO_RULES });
}

/** Locks the merchant's rules for a change (rules of one merchant change one at a time, so positions stay in order). */
async function lockMerchantRules(tx: Tx, merchantId: string): Promise<void> {
  const [merchant] = parseRows(IdRow, await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM merchants WHERE id = ${merchantId}::uuid FOR NO KEY UPDATE`);
  if (!merchant) throw apiError("NOT_FOUND", "merchant not found");
}

/**
 * A merchant's rule, locked; 404 for a malformed, unknown or another merchant's id, and for a deleted rule unless
 * `deleted` allows it.
 */
async function lockRule(tx: Tx, merchantId: string, id: string, opts: { deleted?: boolean } = {}): Promise<ScenarioRuleRow> {
  if (!isUuid(id)) throw apiError("NOT_FOUND", "scenario rule not found");
  const [row] = parseRows(
    IdRow,
    await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM scenario_rules WHERE id = ${id}::uuid AND merchant_id = ${merchantId}::uuid FOR UPDATE`,
  );
  if (!row) throw apiError("NOT_FOUND", "scenario rule not found");
  const rule = await tx.scenarioRule.findUniqueOrThrow({ where: { id } });
  if (rule.deletedAt && !opts.deleted) throw apiError("NOT_FOUND", "scenario rule not found: it was deleted");
  return rule;
}

/** Inserts one rule in the caller's transaction (merchant rules locked), at `position` or after the last. */
async function insertRule(tx: Tx, merchantId: string, input: CreateScenarioRule, now: Date): Promise<ScenarioRuleRow> {
  const count = await tx.scenarioRule.count({ where: { merchantId, deletedAt: null } });
  if (count >= MAX_SCENARIO_RULES) {
    throw apiError("VALIDATION_ERROR", `a merchant has at most ${MAX_SCENARIO_RULES} scenario rules; delete one first`);
  }
  const last = await tx.scenarioRule.aggregate({ where: { merchantId, deletedAt: null }, _max: { position: true } });
  return tx.scenarioRule.create({
    data: {
      merchantId,
      name: input.name,
      enabled: input.enabled,
      position: input.position ?? (last._max.position ?? 0) + 1,
      ...matchColumns(input.match),
      outcome: input.outcome,
      delayMs: input.delayMs,
      failureCode: input.failureCode ?? null,
      createdAt: now,
      updatedAt: now,
    },
  });
}

/**
 * `POST /v1/sandbox/scenario-rules` (docs/api.md "Scenario rules"): adds a rule (off unless `enabled`), audited as
 * `scenario_rule.create`.
 * @throws ApiError 400 VALIDATION_ERROR (100 rules already), 404 NOT_FOUND (unknown merchant)
 */
export async function createScenarioRule(
  db: Db | Tx,
  actor: AuditActor,
  merchantId: string,
  input: CreateScenarioRule,
  now: Date,
): Promise<ScenarioRuleResource> {
  return withTransaction(db, async (tx) => {
    await lockMerchantRules(tx, merchantId);
    const rule = serializeRule(await insertRule(tx, merchantId, input, now));
    await writeAudit(tx, actor, { action: "scenario_rule.create", entity: "scenario_rule", entityId: rule.id, merchantId, before: null, after: rule }, now);
    return rule;
  });
}

/**
 * `PATCH /v1/sandbox/scenario-rules/{id}`: changes the members given (enable or disable, reorder, rematch, a failure
 * code set or removed with null), audited as `scenario_rule.update` with before and after. Applies to payments created
 * afterwards.
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's rule); 400 VALIDATION_ERROR when the rule would keep
 *   a failure code with an outcome other than FAILED (docs/api.md "Failure codes"), nothing changed
 */
export async function updateScenarioRule(
  db: Db | Tx,
  actor: AuditActor,
  merchantId: string,
  id: string,
  input: UpdateScenarioRule,
  now: Date,
): Promise<ScenarioRuleResource> {
  return withTransaction(db, async (tx) => {
    await lockMerchantRules(tx, merchantId);
    const before = serializeRule(await lockRule(tx, merchantId, id));
    const outcome = input.outcome ?? before.outcome;
    const failureCode = input.failureCode === undefined ? before.failureCode : input.failureCode;
    if (failureCode && outcome !== "FAILED") {
      throw apiError(
        "VALIDATION_ERROR",
        input.failureCode
          ? `failureCode: is only for outcome FAILED, and the rule's outcome is ${outcome}; send "outcome": "FAILED" with it`
          : `failureCode: the rule has failure code ${failureCode}, which is only for outcome FAILED; send "failureCode": null with outcome ${outcome} to remove it`,
      );
    }
    const row = await tx.scenarioRule.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.position !== undefined ? { position: input.position } : {}),
        ...(input.match !== undefined ? matchColumns(input.match) : {}),
        ...(input.outcome !== undefined ? { outcome: input.outcome } : {}),
        ...(input.delayMs !== undefined ? { delayMs: input.delayMs } : {}),
        ...(input.failureCode !== undefined ? { failureCode: input.failureCode } : {}),
        updatedAt: now,
      },
    });
    const after = serializeRule(row);
    await writeAudit(tx, actor, { action: "scenario_rule.update", entity: "scenario_rule", entityId: id, merchantId, before, after }, now);
    return after;
  });
}

/**
 * `DELETE /v1/sandbox/scenario-rules/{id}`: removes a rule from the list and from matching (kept disabled with
 * deletedAt), audited as `scenario_rule.delete`. A rule already deleted answers the same and writes nothing.
 * Payments it already matched keep their conclusion (its name stays on them).
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's rule)
 */
export async function deleteScenarioRule(db: Db | Tx, actor: AuditActor, merchantId: string, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  return withTransaction(db, async (tx) => {
    await lockMerchantRules(tx, merchantId);
    const rule = await lockRule(tx, merchantId, id, { deleted: true });
    if (rule.deletedAt) return { id, deleted: true as const };
    const before = serializeRule(rule);
    await tx.scenarioRule.update({ where: { id }, data: { enabled: false, deletedAt: now, updatedAt: now } });
    await writeAudit(tx, actor, { action: "scenario_rule.delete", entity: "scenario_rule", entityId: id, merchantId, before, after: null }, now);
    return { id, deleted: true };
  });
}

/**
 * `POST /v1/sandbox/scenario-rules/standard` and the console's "Add the standard set" (docs/guides/test-every-path.md
 * "Testing your integration"): adds each rule of {@link STANDARD_RULES} the merchant has no rule of that name for, enabled, after
 * its rules; one audit row `scenario_rule.add_standard` naming what was added.
 * @returns the merchant's rules afterwards
 * @throws ApiError 400 VALIDATION_ERROR (the set does not fit in 100 rules), 404 NOT_FOUND
 */
export async function addStandardRules(db: Db | Tx, actor: AuditActor, merchantId: string, now: Date) {
  await withTransaction(db, async (tx) => {
    await lockMerchantRules(tx, merchantId);
    const names = new Set((await tx.scenarioRule.findMany({ where: { merchantId, deletedAt: null }, select: { name: true } })).map((r) => r.name));
    const added: ScenarioRuleResource[] = [];
    for (const rule of STANDARD_RULES) {
      if (!names.has(rule.name)) added.push(serializeRule(await insertRule(tx, merchantId, rule, now)));
    }
    if (added.length) {
      await writeAudit(
        tx,
        actor,
        {
          action: "scenario_rule.add_standard",
          entity: "merchant",
          entityId: merchantId,
          merchantId,
          before: null,
          after: { added: added.map((r) => ({ id: r.id, name: r.name })) },
        },
        now,
      );
    }
  });
  return listScenarioRules(db, merchantId);
}
