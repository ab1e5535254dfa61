package io.rockds.storage.search;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.IndexType;
import org.rocksdb.RocksDBException;

/**
 * Builds the candidate set of a filter from the container's trusted indexes: equality and
 * presence are one key read, AND intersects, OR unites (undefined if any branch is); anything
 * without a usable index is undefined ("all entries").
 */
public final class IndexQuery {
  private final EntryContainer container;

  public IndexQuery(EntryContainer container) {
    this.container = container;
  }

  public IdSet candidates(Filter filter) throws LDAPException {
    try {
      return evaluate(filter);
    } catch (RocksDBException e) {
      throw new LDAPException(com.unboundid.ldap.sdk.ResultCode.OTHER, "storage error: " + e.getMessage(), e);
    }
  }

  private IdSet evaluate(Filter filter) throws RocksDBException {
    switch (filter.getFilterType()) {
      case Filter.FILTER_TYPE_AND -> {
        IdSet result = IdSet.undefined(IdSet.Undefined.NOT_INDEXED);
        for (Filter component : filter.getComponents()) {
          result = result.intersect(evaluate(component));
        }
        return result;
      }
      case Filter.FILTER_TYPE_OR -> {
        IdSet result = IdSet.empty();
        for (Filter component : filter.getComponents()) {
          result = result.union(evaluate(component));
          if (!result.isDefined()) {
            return result;
          }
        }
        return result;
      }
      case Filter.FILTER_TYPE_EQUALITY -> {
        AttributeIndex index = usable(filter.getAttributeName(), IndexType.EQUALITY);
        if (index == null) {
          return notIndexed();
        }
        byte[] key = index.normalize(new ASN1OctetString(filter.getAssertionValueBytes()));
        return key == null ? IdSet.empty() : index.read(key);
      }
      case Filter.FILTER_TYPE_PRESENCE -> {
        AttributeIndex index = usable(filter.getAttributeName(), IndexType.PRESENCE);
        return index == null ? notIndexed() : index.read(new byte[] {'+'});
      }
      default -> {
        return notIndexed();
      }
    }
  }

  private AttributeIndex usable(String attribute, IndexType type) {
    String base = attribute.contains(";") ? attribute.substring(0, attribute.indexOf(';')) : attribute;
    AttributeIndex index = container.index(base, type);
    return index != null && index.isTrusted() ? index : null;
  }

  private static IdSet notIndexed() {
    return IdSet.undefined(IdSet.Undefined.NOT_INDEXED);
  }
}
