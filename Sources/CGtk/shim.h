// GTK 4 and libadwaita for qrseal-desktop, and the few things Swift cannot call itself:
// macros (type casts, G_CALLBACK) become inline functions here. Nothing else.
#include <adwaita.h>

/// g_signal_connect_data for any handler: Swift passes its C function as a pointer.
static inline unsigned long qrs_signal_connect(void *instance, const char *signal, void *handler,
                                               void *data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, (GCallback)handler, data, destroy, (GConnectFlags)0);
}

/// Whether the object is still alive and an instance of GtkWidget (GTK_IS_WIDGET).
static inline gboolean qrs_is_widget(void *object) { return GTK_IS_WIDGET(object); }

/// g_object_set for one string, boolean or integer property (g_object_set is variadic).
static inline void qrs_object_set_string(void *object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}
static inline void qrs_object_set_bool(void *object, const char *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}

/// gtk_accessible_update_property for the label (variadic in C).
static inline void qrs_accessible_set_label(void *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void qrs_accessible_set_description(void *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}
