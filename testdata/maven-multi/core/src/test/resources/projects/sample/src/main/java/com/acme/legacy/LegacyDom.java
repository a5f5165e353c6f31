package com.acme.legacy;

public class LegacyDom {
}
