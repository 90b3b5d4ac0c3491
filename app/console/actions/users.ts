"use server";

import { consoleAction } from "@/lib/application/console/action";
import { changeUserAccess, createUser, NewUserInput, UserAccessInput } from "@/lib/domain/users/manage-users";
import { countOf } from "@/lib/application/console/words";

export const createUserAction = consoleAction(NewUserInput, async ({ actor, tx, input, now }) => {
  const u = await createUser(tx, actor, input, now);
  return { message: `Created ${u.role === "OPERATOR" ? "operator" : "merchant user"} ${u.username}.` };
});

export const changeAccess = consoleAction(UserAccessInput, async ({ actor, tx, input, now }) => {
  const { user, revokedKeys } = await changeUserAccess(tx, actor, input, now);
  return { message: `Saved ${user.username}'s access; ${countOf(revokedKeys.length, "API key")} revoked.` };
});
