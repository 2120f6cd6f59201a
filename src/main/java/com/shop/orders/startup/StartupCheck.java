package com.shop.orders.startup;

import java.util.List;

/**
 * A package's refusal of unsafe production settings. Each problem is one line that names the
 * environment variable to fix; {@link StartupChecks} stops the start-up when any check has one.
 */
public interface StartupCheck {

    List<String> problems();
}
