package com.shop.orders.startup;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Refuses to start a production service with unsafe settings (missing or malformed keys, short secrets):
 * such a service would start, look ready, and then fail every payment or every request. Dev and test
 * launches generate their own keys and are not checked.
 */
@ApplicationScoped
public class StartupChecks {

    private static final Logger LOG = Logger.getLogger(StartupChecks.class);

    void check(@Observes @Priority(1) StartupEvent event, @Any Instance<StartupCheck> checks) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        List<String> problems = new ArrayList<>();
        checks.forEach(check -> problems.addAll(check.problems()));
        if (!problems.isEmpty()) {
            problems.forEach(LOG::error);
            throw new ConfigurationException("Unsafe configuration, not starting:\n  " + String.join("\n  ", problems));
        }
    }
}
