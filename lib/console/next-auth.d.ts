import "next-auth";

declare module "next-auth" {
  interface Session {
    /** console_users.id of the signed-in user. */
    userId?: string;
  }
}
