/**
 * The index advisor ({@code backendstat suggest-indexes}): from the access log's searches and the
 * index records they hit, the indexes to add and the index-entry-limits to change, each with its
 * evidence (search counts, etimes, key counts) and the commands that apply it.
 */
package io.rockds.tools.advisor;
