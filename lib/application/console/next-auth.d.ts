import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    /** console_users.id of the signed-in user. */
    userId?: string;
    /** console_users.session_epoch the session was issued under. */
    sessionEpoch?: number;
  }
  interface User {
    sessionEpoch?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    sessionEpoch?: number;
  }
}
