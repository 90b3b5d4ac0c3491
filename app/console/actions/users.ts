"use server";

import { consoleAction } from "@/lib/console/action";
import { changeUserAccess, createUser, NewUserInput, UserAccessInput } from "@/lib/users/manage-users";
import { countOf } from "@/lib/console/words";

export const createUserAction = consoleAction(NewUserInput, async ({ actor, tx, input, now }) => {
  const u = await createUser(tx, actor, input, now);
  return { message: `Created ${u.role === "OPERATOR" ? "operator" : "merchant user"} ${u.username}.` };
});

export const changeAccess = consoleAction(UserAccessInput, async ({ actor, tx, input, now }) => {
  const { user, revokedKeys } = await changeUserAccess(tx, actor, input, now);
  return { message: `Saved ${user.username}'s access; ${countOf(revokedKeys.length, "API key")} revoked.` };
});
