/**
 * Security load: {@link io.rockds.benchmarks.security.AuthRate} (search by uid, then bind as that
 * user) over a data set from {@link io.rockds.benchmarks.security.AuthRateData}, to compare the
 * bind cost of storage schemes ({@code SSHA512} vs {@code PBKDF2-SHA256}) and servers.
 */
package io.rockds.benchmarks.security;
