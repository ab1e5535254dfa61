package io.rockds.tools.advisor;

import io.rockds.storage.IndexType;
import java.util.List;
import java.util.Locale;

/** One recommendation of the advisor, with its evidence and the commands that apply it. */
public sealed interface Suggestion {
  Evidence evidence();

  /** A line naming what to change. */
  String title();

  /** Ready-to-run commands, in order. */
  List<String> commands();

  /** An index (or an index type of an existing index) that frequent unindexed searches lack. */
  record AddIndex(
      String backendId,
      String baseDn,
      String attribute,
      IndexType type,
      boolean indexExists,
      Evidence evidence)
      implements Suggestion {
    @Override
    public String title() {
      return (indexExists ? "Add index type " : "Add index ")
          + attribute
          + " "
          + typeName()
          + " to backend "
          + backendId;
    }

    @Override
    public List<String> commands() {
      String dsconfig =
          indexExists
              ? "dsconfig set-backend-index-prop --backend-name "
                  + backendId
                  + " --index-name "
                  + attribute
                  + " --add index-type:"
                  + typeName()
              : "dsconfig create-backend-index --backend-name "
                  + backendId
                  + " --index-name "
                  + attribute
                  + " --set index-type:"
                  + typeName();
      return List.of(dsconfig, "rebuild-index --baseDN \"" + baseDn + "\" --index " + attribute);
    }

    private String typeName() {
      return type.name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * A key over (or near) its index-entry-limit that searches use. {@code newLimit} is null when the
   * key holds so large a share of the entries that an index cannot help (OpenDJ's advice: never
   * raise a limit close to the entry count).
   */
  record ChangeLimit(
      String backendId,
      String baseDn,
      String indexName,
      String attribute,
      String key,
      long ids,
      int limit,
      long entries,
      Integer newLimit,
      Evidence evidence)
      implements Suggestion {
    @Override
    public String title() {
      String state = ids > limit ? "over its limit of " + limit : "near its limit of " + limit;
      String action =
          newLimit == null
              ? ": "
                  + ids
                  + " of "
                  + entries
                  + " entries are too many for an index to help; keep the limit (such"
                  + " searches stay unindexed: narrow their filters or run them on a reporting replica)"
              : ": raise the limit of " + attribute + " to " + newLimit;
      return "Key [" + key + "] of " + indexName + " holds " + ids + " entries, " + state + action;
    }

    @Override
    public List<String> commands() {
      if (newLimit == null) {
        return List.of();
      }
      return List.of(
          "dsconfig set-backend-index-prop --backend-name "
              + backendId
              + " --index-name "
              + attribute
              + " --set index-entry-limit:"
              + newLimit,
          "rebuild-index --baseDN \"" + baseDn + "\" --index " + attribute);
    }
  }
}
