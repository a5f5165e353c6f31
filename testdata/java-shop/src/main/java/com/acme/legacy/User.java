package com.acme.legacy;

/** The old user record, kept for the migration. Same simple name as com.acme.user.User. */
@Deprecated
public class User {
    public String login;
}
