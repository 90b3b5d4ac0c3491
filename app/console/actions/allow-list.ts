"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/application/console/action";
import {
  addAllowedIp,
  AllowedIpInput,
  AllowedIpRequestInput,
  approveAllowedIpRequest,
  cancelAllowedIpRequest,
  rejectAllowedIpRequest,
  RejectAllowedIpRequestInput,
  removeAllowedIp,
  requestAllowedIp,
} from "@/lib/domain/merchants/allow-list";
import { uuidField } from "@/lib/contract/schemas/forms/fields";

/** The allow-list form: an operator's address is added at once, a MERCHANT user's becomes a pending request. */
export const addIp = consoleAction(AllowedIpInput, async ({ actor, tx, input, now }) => {
  if (actor.role === "OPERATOR") {
    const row = await addAllowedIp(tx, actor, input, now);
    return { message: `Added ${row.address} to the allow-list.` };
  }
  const request = await requestAllowedIp(tx, actor, input, now);
  return { message: `Requested ${request.address}. It is not allowed until an operator approves the request.` };
});

export const removeIp = consoleAction(z.object({ merchantId: uuidField, allowedIpId: uuidField }), async ({ actor, tx, input, now }) => {
  await removeAllowedIp(tx, actor, input, now);
  return { message: "Removed the address from the allow-list." };
});

export const approveIpRequest = consoleAction(AllowedIpRequestInput, async ({ actor, tx, input, now }) => {
  const { entry } = await approveAllowedIpRequest(tx, actor, input, now);
  return { message: `Approved: ${entry.address} is on the allow-list.` };
});

export const rejectIpRequest = consoleAction(RejectAllowedIpRequestInput, async ({ actor, tx, input, now }) => {
  const request = await rejectAllowedIpRequest(tx, actor, input, now);
  return { message: `Rejected the request for ${request.address}.` };
});

export const cancelIpRequest = consoleAction(AllowedIpRequestInput, async ({ actor, tx, input, now }) => {
  const request = await cancelAllowedIpRequest(tx, actor, input, now);
  return { message: `Cancelled the request for ${request.address}.` };
});
