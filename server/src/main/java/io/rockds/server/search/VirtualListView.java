package io.rockds.server.search;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.VirtualListViewRequestControl;
import com.unboundid.ldap.sdk.controls.VirtualListViewResponseControl;

/**
 * The virtual list view request control (draft-ietf-ldapext-ldapv3-vlv-09): which window of the
 * sorted result set a search returns, and the response control saying where it landed.
 *
 * <p>The target is an offset (1 = the first entry) or an assertion value (the first entry whose
 * first sort key is at or after the value in the sort order). As the draft says (and slapd's sssvlv
 * does), an offset given with a client's content count estimate is scaled to the real size: {@code
 * offset * size / contentCount}. As OpenDJ does, offset 0 means 1, and a target past the end is
 * "one past the last entry" (targetPosition = size + 1): only the beforeCount entries before it are
 * returned. A negative offset or count is offsetRangeError (61).
 */
public final class VirtualListView {
  public static final String OID = VirtualListViewRequestControl.VIRTUAL_LIST_VIEW_REQUEST_OID;

  /**
   * The entries of the window: positions {@code from} (inclusive) to {@code to} (exclusive), 0
   * based, and the response's 1-based target position.
   */
  public record Window(int from, int to, int targetPosition, int contentCount) {}

  private final VirtualListViewRequestControl control;

  private VirtualListView(VirtualListViewRequestControl control) {
    this.control = control;
  }

  /** The request's VLV control, or null; protocolError (2) when it cannot be decoded. */
  public static VirtualListView from(Control control) throws LDAPException {
    if (control == null) {
      return null;
    }
    try {
      return new VirtualListView(new VirtualListViewRequestControl(control));
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR, "invalid virtual list view control: " + e.getMessage(), e);
    }
  }

  /** The assertion value to position on, or null when the target is an offset. */
  public ASN1OctetString assertionValue() {
    return control.getAssertionValue();
  }

  public int beforeCount() {
    return control.getBeforeCount();
  }

  public int afterCount() {
    return control.getAfterCount();
  }

  /** The window for an offset target over a sorted set of {@code size} entries. */
  public Window byOffset(int size) throws LDAPException {
    int offset = control.getTargetOffset();
    int estimate = control.getContentCount();
    if (offset < 0 || estimate < 0 || beforeCount() < 0 || afterCount() < 0) {
      throw failure(
          ResultCode.OFFSET_RANGE_ERROR,
          "The virtual list view offset, content count and before/after counts must not be"
              + " negative",
          0,
          size);
    }
    long target = offset == 0 ? 1 : offset;
    if (estimate > 0 && estimate != size) {
      target = offset >= estimate ? size : Math.max(1, (long) offset * size / estimate);
    }
    return around((int) Math.min(target, (long) size + 1), size);
  }

  /** The window whose target is the entry at 0-based {@code position} (size: none matched). */
  public Window atPosition(int position, int size) {
    return around(position + 1, size);
  }

  private Window around(int target, int size) {
    if (target > size) {
      target = size + 1;
    }
    int from = (int) Math.max(0, (long) target - 1 - beforeCount());
    int to = (int) Math.min(size, (long) target + afterCount());
    return new Window(from, Math.max(from, to), target, size);
  }

  /** The response control for a window that was returned. */
  public Control responseControl(Window window) {
    return new VirtualListViewResponseControl(
        window.targetPosition(), window.contentCount(), ResultCode.SUCCESS, null);
  }

  /**
   * A failed VLV search: the result code, with the response control carrying the same code after
   * {@code others}.
   */
  public static LDAPException failure(
      ResultCode code, String message, int target, int size, Control... others) {
    Control[] controls = new Control[others.length + 1];
    System.arraycopy(others, 0, controls, 0, others.length);
    controls[others.length] = new VirtualListViewResponseControl(target, size, code, null);
    return new LDAPException(code, message, null, null, controls);
  }
}
